import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { isScraperDomain } from '../cookies/scraper/layout.js';
import { normaliseEmail } from '../identity/email.js';
import type { CliCommand } from './command.js';

const HELP = `usage:
  station scrape --now [--user <email>] [--domain <domain>]

Runs the daily scraper pass immediately (same rules as the SCRAPER_AT run: one run per user,
domain and day, missing-scraper mails once) and prints a JSON summary {ran, skipped, notified, failed, items}.`;

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, logger, out }) {
    let values;
    try {
      ({ values } = parseArgs({
        args,
        options: {
          now: { type: 'boolean', default: false },
          user: { type: 'string' },
          domain: { type: 'string' },
          help: { type: 'boolean', default: false },
        },
      }));
    } catch (error) {
      console.error((error as Error).message);
      out(HELP);
      return 2;
    }
    if (values.help || !values.now) {
      out(HELP);
      return values.help ? 0 : 2;
    }
    const email = values.user === undefined ? undefined : normaliseEmail(values.user);
    if (email === null) {
      console.error('--user must be a valid e-mail address');
      return 2;
    }
    const domain = values.domain?.toLowerCase().replace(/^\./, '');
    if (domain !== undefined && !isScraperDomain(domain)) {
      console.error('--domain must be a domain name such as youtube.com');
      return 2;
    }
    // Loaded once the command runs, not with the module: its --help stays instant (bench/cli.ts).
    const [{ createScraper }, { createMailer }] = await Promise.all([
      import('../cookies/scraper/service.js'),
      import('../mail/mailer.js'),
    ]);
    const mailer = createMailer(config, { clock: systemClock, logger });
    try {
      const scraper = createScraper({ config, clock: systemClock, mailer, logger });
      const summary = await scraper.scan({ email, domain });
      out(JSON.stringify(summary));
      return 0;
    } finally {
      mailer.close();
    }
  },
};
