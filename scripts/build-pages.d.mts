export function buildPages(options?: { outdir?: string; explorerOutdir?: string }): Promise<void>;
export function buildExplorer(options?: {
  outdir?: string;
}): Promise<{ cid: string; script: string; style: string }>;
