import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SearchRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** Two ads as the finder API returns them (the fields the site's clients read, plus some noise). */
export const ADS = [
  {
    list_id: 2901234567,
    first_publication_date: '2026-11-21 18:02:11',
    index_date: '2026-11-21 18:02:11',
    status: 'active',
    category_id: '19',
    category_name: 'Ameublement',
    subject: 'Donne armoire en chêne',
    body: 'À venir chercher sur place.',
    ad_type: 'offer',
    url: 'https://www.leboncoin.fr/ad/ameublement/2901234567',
    price: [0],
    price_cents: 0,
    images: {
      nb_images: 1,
      urls: ['https://img.leboncoin.fr/a.jpg'],
      urls_large: ['https://img.leboncoin.fr/a-l.jpg'],
    },
    attributes: [{ key: 'donation', value: '1', value_label: 'Don' }],
    location: { city: 'Toulouse', zipcode: '31000', lat: 43.6, lng: 1.44, department_id: '31' },
    owner: { type: 'private', user_id: 'u1', name: 'Jean' },
  },
  {
    list_id: 2901234999,
    first_publication_date: '2026-11-20 09:15:00',
    category_name: 'Livres',
    subject: 'Lot de livres gratuits',
    body: 'x'.repeat(2000),
    url: 'https://www.leboncoin.fr/ad/livres/2901234999',
    images: {},
    location: { city: 'Blagnac', zipcode: '31700', lat: 43.63, lng: 1.39 },
  },
];

/**
 * A local stand-in for `POST https://api.leboncoin.fr/finder/search`: answers `{total, ads}` like the
 * real API, or a DataDome-style 403 page when `status` is set to 403.
 */
export async function startFakeLeboncoin(): Promise<{
  url: string;
  requests: SearchRequest[];
  respondWith: (status: number) => void;
  close: () => Promise<void>;
}> {
  const requests: SearchRequest[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text: the assertion on the body will show what was sent
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (status !== 200) {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<html><body>Please enable JS and disable any ad blocker</body></html>');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ total: 2, total_all: 2, max_pages: 1, referrer_id: 'r', ads: ADS }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/finder/search`,
    requests,
    respondWith: (next) => {
      status = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
