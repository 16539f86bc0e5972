import type { fr } from '../fr/index.js';
import { cookie } from './cookie.js';
import { drive } from './drive.js';
import { economy } from './economy.js';
import { error } from './error.js';
import { g1 } from './g1.js';
import { key } from './key.js';
import { keys } from './keys.js';
import { nostr } from './nostr.js';
import { position } from './position.js';
import { scan } from './scan.js';
import { webcam } from './webcam.js';

/** Every English text of the pages; typed by the French catalogue, so a label missing in one fails to compile. */
export const en: typeof fr = { cookie, drive, economy, error, g1, key, keys, nostr, position, scan, webcam };
