import type { fr } from './fr/index.js';

/**
 * The shapes of the page texts, taken from the French catalogue (the English one is typed by it). The
 * `…ScriptLabels` are what a browser module shows at run time: the server hands them over in a data
 * attribute, so the strict Content-Security-Policy holds (no inline script).
 */
export type Catalogue = typeof fr;

/** The NOSTR key block shared by the cookie, drive, geo-message and webcam pages (`partials/key.eta`). */
export type KeyScriptLabels = Catalogue['key']['js'];
/** The keys card the scan and registration pages show once after creating an identity. */
export type KeysLabels = Catalogue['keys'];
/** The position block shared by the registration and geo-message pages. */
export type PositionLabels = Catalogue['position'];
export type CookieScriptLabels = Catalogue['cookie']['js'];
/** Also bundled into the drive explorer (pages/explorer/), which carries both languages. */
export type DriveLabels = Catalogue['drive'];
export type DriveScriptLabels = DriveLabels['js'];
export type G1ScriptLabels = Catalogue['g1']['js'];
export type NostrScriptLabels = Catalogue['nostr']['js'];
export type ScanScriptLabels = Catalogue['scan']['js'];
export type WebcamScriptLabels = Catalogue['webcam']['js'];
