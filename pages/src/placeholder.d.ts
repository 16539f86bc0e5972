// Browser modules of the pages live in this folder; each top-level .ts is bundled to dist/pages/<name>.js.
export {};
