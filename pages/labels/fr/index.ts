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

/** Every French text of the pages, by page then label; the English catalogue has exactly these keys. */
export const fr = { cookie, drive, economy, error, g1, key, keys, nostr, position, scan, webcam };
