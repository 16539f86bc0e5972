import { describe, expect, it } from 'vitest';
import { freeNames } from '../../src/drive/placement.js';
import { tempDir } from '../helpers/temp.js';

describe('free names for a batch', () => {
  it('starts after the numbered names already listed, and again from the first once one is freed', async () => {
    const dir = await tempDir('free-names-');
    try {
      const listed = new Set(['Images/a.jpg']);
      let asked = 0;
      const isListed = (path: string) => {
        asked += 1;
        return listed.has(path);
      };
      const hints = new Map<string, number>();
      const want = [{ category: 'Images' as const, name: 'a.jpg' }];
      for (let i = 1; i <= 300; i++) {
        asked = 0;
        const [name] = await freeNames(dir.path, isListed, want, hints);
        expect(name).toBe(`a (${i}).jpg`);
        listed.add(`Images/${name}`);
        // The 300th asks about as few names as the first: not the 299 before it.
        expect(asked).toBeLessThanOrEqual(2);
      }
      listed.delete('Images/a (5).jpg');
      hints.clear(); // what a change that removes a file does (changes/plan.ts)
      expect(await freeNames(dir.path, isListed, want, hints)).toEqual(['a (5).jpg']);
      // Two of a batch get two names; the hint never skips a name a failed batch left free.
      expect(await freeNames(dir.path, isListed, [...want, ...want], hints)).toEqual([
        'a (5).jpg',
        'a (301).jpg',
      ]);
      expect(await freeNames(dir.path, isListed, want, hints)).toEqual(['a (5).jpg']);
    } finally {
      await dir.cleanup();
    }
  });
});
