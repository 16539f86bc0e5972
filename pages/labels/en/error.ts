import type { error as french } from '../fr/error.js';

export const error: typeof french = {
  titles: {
    invalid: 'Request not possible',
    notFound: 'Page not found',
    unavailable: 'Service unavailable',
    internal: 'Station error',
  },
  explanations: {
    invalid: 'The station could not handle this request: check what you typed.',
    notFound: 'This address matches nothing on this station.',
    unavailable:
      'A service the station depends on (Ğ1 indexer, storage, relay…) does not answer. Try again in a moment.',
    internal: 'Something failed in the station. Try again later or tell its operator.',
  },
  status: 'Status',
  detail: 'Detail',
  code: 'Code',
  back: 'Back to the page',
  home: 'Home',
};
