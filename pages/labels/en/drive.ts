import type { drive as french } from '../fr/drive.js';
import { key } from './key.js';

export const drive: typeof french = {
  title: 'My uDRIVE',
  intro:
    'Your uDRIVE is published on IPFS: each change gives a new root CID, holding your folders, manifest.json and an explorer (_index.html) that works from any gateway.',
  ...key.page,
  uploadTitle: '2. Add a file',
  fileLabel: 'File',
  upload: 'Upload',
  listTitle: '3. My files',
  refresh: 'Refresh',
  js: {
    ...key.js,
    failed: 'Failed',
    chooseFile: 'Choose a file first.',
    uploading: 'Uploading…',
    uploaded: 'File saved',
    deleted: 'File deleted',
    copiedToMine: 'Copied into your uDRIVE',
    noManifest: 'This folder has no readable manifest.json.',
    notRegistered: 'This key has no uDRIVE on this station.',
    empty: '(empty)',
    file: 'file',
    files: 'files',
    download: 'Download',
    copyLink: 'Copy link',
    copied: 'Link copied',
    play: 'Play',
    remove: 'Delete',
    confirmRemove: 'Confirm deletion',
    copyToMine: 'Copy to my uDRIVE',
    owner: 'You own this uDRIVE.',
    notOwner: 'This uDRIVE belongs to another key: your uploads go to your own uDRIVE.',
    openExplorer: 'Open the published explorer',
    folders: { Documents: 'Documents', Images: 'Images', Music: 'Music', Videos: 'Videos' },
  },
};
