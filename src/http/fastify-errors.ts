import type { FastifyError } from 'fastify';
import frenchMessages from 'ajv-i18n/localize/fr/index.js';
import type { Localize } from 'ajv-i18n/localize/types.js';
import type { ErrorCode } from '../errors.js';
import type { Localized } from '../i18n/localized.js';

/**
 * Fastify's and its plugins' own refusals (schema validation, body parsers, body and multipart limits) as our
 * codes, with their detail in both languages (docs/api-contract.md §6): the English one stays what Fastify
 * says, as before; the French one is ours.
 */

/** Fastify's error codes mapped to our stable ones, with the French detail of each. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; fr: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    fr: 'Type de contenu (Content-Type) non pris en charge par cette route.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'EMPTY_BODY',
    fr: 'Le corps de la requête ne peut pas être vide quand son type est « application/json ».',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'MALFORMED_JSON',
    fr: 'Le corps de la requête n’est pas du JSON valide alors que son type est « application/json ».',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'BODY_TOO_LARGE',
    fr: 'Le corps de la requête est trop volumineux.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'BAD_CONTENT_LENGTH',
    fr: 'La taille du corps de la requête ne correspond pas à Content-Length.',
  },
  FST_REQ_FILE_TOO_LARGE: { code: 'FILE_TOO_LARGE', fr: 'Le fichier envoyé est trop volumineux.' },
  FST_PARTS_LIMIT: { code: 'TOO_MANY_PARTS', fr: 'Trop de parties dans le formulaire multipart.' },
  FST_FILES_LIMIT: { code: 'TOO_MANY_FILES', fr: 'Trop de fichiers dans le formulaire.' },
  FST_FIELDS_LIMIT: { code: 'TOO_MANY_FIELDS', fr: 'Trop de champs dans le formulaire.' },
  FST_PROTO_VIOLATION: {
    code: 'MALFORMED_MULTIPART',
    fr: 'Un champ de formulaire ne peut pas s’appeler « prototype ».',
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    code: 'NOT_MULTIPART',
    fr: 'La requête n’est pas en multipart/form-data.',
  },
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: { code: 'INTERNAL', fr: 'Erreur interne' },
};

/** What failed validation, as a French sentence starts ("Corps de la requête invalide"). */
const FRENCH_CONTEXTS: Record<string, string> = {
  body: 'Corps de la requête invalide',
  querystring: 'Paramètres de l’URL invalides',
  params: 'Chemin de l’URL invalide',
  headers: 'En-têtes invalides',
};

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

// The module is CommonJS (`module.exports = function`) while its types declare an ES default export: what
// Node hands to the default import is the function itself.
const localizeFrench = frenchMessages as unknown as Localize;

/**
 * A schema refusal in both languages. English as Fastify words it (`Invalid body: body/email must match
 * format "email"`); French with ajv-i18n's sentences for the same keywords, the field's path left as is.
 */
export function validationDetail(error: FastifyError): Localized {
  const context = error.validationContext ?? 'request';
  // ajv-i18n rewrites `message` in place: a copy, so the error logged keeps Fastify's words.
  const issues = (error.validation ?? []).map((issue): ValidationIssue => ({ ...issue }));
  localizeFrench(issues as Parameters<typeof localizeFrench>[0]);
  const french = issues
    .map((issue) => `${context}${issue.instancePath ?? ''} ${issue.message ?? 'est invalide'}`)
    .join(', ');
  return {
    en: `Invalid ${context}: ${error.message}`,
    fr: `${FRENCH_CONTEXTS[context] ?? 'Requête invalide'} : ${french}`,
  };
}

/** One of Fastify's mapped errors as our code and detail; undefined for the others. */
export function fastifyAnswer(error: FastifyError): { code: ErrorCode; detail: Localized } | undefined {
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  return mapped && { code: mapped.code, detail: { en: error.message, fr: mapped.fr } };
}
