import type { OutgoingMail } from '../../mail/mailer.js';

/** Who to write to: the captain when `CAPTAINEMAIL` is set, otherwise whoever runs the station. */
function contact(captainEmail: string | null): { fr: string; en: string } {
  return captainEmail
    ? {
        fr: `le capitaine de la station, à l'adresse ${captainEmail}`,
        en: `the station captain at ${captainEmail}`,
      }
    : {
        fr: 'le capitaine de votre station (répondez à ce message)',
        en: 'your station captain (reply to this message)',
      };
}

/** Sent once per domain when a user's cookie has no scraper script (spec "Daily scraper execution" 6). */
export function missingScraperMail(to: string, domain: string, captainEmail: string | null): OutgoingMail {
  const who = contact(captainEmail);
  return {
    to,
    subject: `Cookie ${domain} : aucun programme correspondant / no matching program`,
    text: [
      `Bonjour,`,
      ``,
      `Vous avez déposé un cookie pour ${domain}, mais cette station n'a aucun programme`,
      `(« scraper ») qui sache l'utiliser : il n'est donc pas utilisé pour l'instant.`,
      ``,
      `Pour demander un scraper sur mesure, écrivez à ${who.fr}`,
      `en indiquant le domaine ${domain} et ce que vous aimeriez automatiser`,
      `(par exemple : copier vos favoris, vos annonces ou vos documents dans votre uDRIVE).`,
      `Dès qu'un programme existe, il s'exécutera chaque jour avec votre cookie.`,
      `Vous pouvez aussi supprimer ce cookie depuis la page /cookie de la station.`,
      ``,
      `---`,
      ``,
      `Hello,`,
      ``,
      `You uploaded a cookie for ${domain}, but this station has no program ("scraper")`,
      `that knows how to use it, so it is not used for now.`,
      ``,
      `To ask for a custom scraper, write to ${who.en},`,
      `naming the domain ${domain} and what you would like automated`,
      `(for example: copying your favourites, ads or documents into your uDRIVE).`,
      `As soon as a program exists, it will run every day with your cookie.`,
      `You can also delete this cookie from the station's /cookie page.`,
      ``,
    ].join('\n'),
  };
}

export type RefreshReason = 'expired' | 'rejected';

/** Sent once per cookie file version when its cookies have all expired or the site refused them. */
export function refreshCookieMail(
  to: string,
  domain: string,
  reason: RefreshReason,
  captainEmail: string | null,
): OutgoingMail {
  const who = contact(captainEmail);
  const why =
    reason === 'expired'
      ? {
          fr: `tous les cookies de votre fichier ${domain} ont expiré`,
          en: `all the cookies of your ${domain} file have expired`,
        }
      : {
          fr: `${domain} a refusé votre cookie (session terminée)`,
          en: `${domain} refused your cookie (the session has ended)`,
        };
  return {
    to,
    subject: `Cookie ${domain} : merci d'en déposer un nouveau / please upload a fresh one`,
    text: [
      `Bonjour,`,
      ``,
      `La synchronisation quotidienne de ${domain} est en pause : ${why.fr}.`,
      `Connectez-vous à ${domain} dans votre navigateur, exportez de nouveau vos cookies`,
      `(format Netscape, un seul domaine par fichier) et déposez le fichier sur la page /cookie`,
      `de la station. La synchronisation reprendra le lendemain.`,
      `Une question ? Écrivez à ${who.fr}.`,
      ``,
      `---`,
      ``,
      `Hello,`,
      ``,
      `The daily ${domain} sync is paused: ${why.en}.`,
      `Sign in to ${domain} in your browser, export your cookies again (Netscape format,`,
      `one domain per file) and upload the file on the station's /cookie page.`,
      `The sync resumes the following day.`,
      `Questions? Write to ${who.en}.`,
      ``,
    ].join('\n'),
  };
}
