import type { cookie as french } from '../fr/cookie.js';
import { key } from './key.js';

export const cookie: typeof french = {
  title: 'My cookies',
  intro:
    'A cookie export (a "cookies.txt" file, Netscape format) lets your station’s programs act for you on a site where you are logged in: sync your liked YouTube videos, look for ads on leboncoin… The file stays private in your directory: it is never published to IPFS nor put in your uDRIVE.',
  howTitle: 'How to make a cookie export',
  howSteps: [
    'Install an extension that exports cookies in Netscape format, for example "Get cookies.txt LOCALLY" (Chrome, Firefox).',
    'Log in to the site (youtube.com, leboncoin.fr…) in that browser.',
    'On a page of that site, open the extension and export the cookies of the current site only: one domain per file.',
    'Upload the file here. When the cookies expire, export again: the new file replaces the old one.',
  ],
  safety:
    'Cookies are worth a password: only send them to your own station. Your secret key never leaves this page.',
  ...key.page,
  uploadTitle: '2. Upload a cookie file',
  fileLabel: 'cookies.txt file (one domain)',
  upload: 'Upload',
  listTitle: '3. My cookie files',
  refresh: 'Refresh',
  js: {
    ...key.js,
    chooseFile: 'Choose a file first.',
    uploading: 'Uploading…',
    uploaded: 'File saved.',
    failed: 'Failed',
    noCookies: 'No cookie file yet.',
    sessionOnly: 'end of session',
    expired: 'expired',
    remove: 'Delete',
    confirmRemove: 'Confirm deletion',
    removed: 'Deleted',
    unknownDomain: '(unknown domain)',
    notCookieFile:
      'This file is not a cookie export (a Netscape cookies.txt: lines of 7 TAB-separated fields): it was not sent.',
    otherFiles: 'To put a photo or any other file in your uDRIVE, go to',
    drivePage: 'the uDRIVE page',
    columns: { domain: 'Domain', uploaded: 'Uploaded', expires: 'Expires', size: 'Size', action: 'Action' },
    fields: { message: 'Message', domain: 'Domain', file: 'File', time: 'Date' },
  },
};
