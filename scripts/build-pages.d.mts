export function buildPages(options?: { outdir?: string }): Promise<void>;
