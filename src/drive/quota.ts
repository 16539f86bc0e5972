import type { SizeLimit } from '../fs/head-bytes.js';
import { TooLarge } from '../errors.js';

export class QuotaExceededError extends TooLarge {
  constructor(limitBytes: number) {
    const megabytes = Math.floor(limitBytes / 1048576);
    super('QUOTA_EXCEEDED', {
      en: `The file does not fit in the drive quota of ${megabytes} MB.`,
      fr: `Le fichier ne tient pas dans le quota du uDRIVE (${megabytes} Mo).`,
    });
  }
}

/** Staging limit for content bound for a drive: at most `maxBytes` (the quota, or the room left in it). */
export function quotaLimit(maxBytes: number): SizeLimit {
  const bound = Math.max(0, maxBytes);
  return { maxBytes: bound, refuse: () => new QuotaExceededError(bound) };
}
