/** What the cookie page receives: its texts (from the server-rendered page) and the API answers. */

export interface Labels {
  connectedAs: string;
  notConnected: string;
  noExtension: string;
  badNsec: string;
  extensionRefused: string;
  chooseFile: string;
  uploading: string;
  uploaded: string;
  failed: string;
  noCookies: string;
  sessionOnly: string;
  expired: string;
  remove: string;
  confirmRemove: string;
  removed: string;
  unknownDomain: string;
  fields: { message: string; domain: string; file: string; time: string };
}

export interface CookieEntry {
  domain: string | null;
  file: string;
  uploaded_at: string;
  size: number;
  expires_at: string | null;
}

export interface UploadAnswer {
  message?: string;
  description?: string;
  file_path?: string;
  timestamp?: string;
}
