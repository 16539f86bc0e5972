/**
 * Why a media field could not be made. These never reach a client: the field is null and the upload still
 * succeeds; `code` is what the log line carries.
 */
export class MediaError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}

/** The ffmpeg / ffprobe binary is not there (or not executable). */
export class MediaToolMissingError extends MediaError {
  constructor(readonly tool: string) {
    super('MEDIA_TOOL_MISSING', `${tool} is not installed or not executable`);
  }
}

/** The upload's time budget ran out, before a run could start or while it ran (its group was killed). */
export class MediaTimeoutError extends MediaError {
  constructor(readonly tool: string) {
    super('MEDIA_TIMEOUT', `${tool}: media time budget exhausted`);
  }
}

/** The tool ran and failed: unreadable or unsupported content, mostly. */
export class MediaToolFailedError extends MediaError {
  constructor(
    readonly tool: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    super('MEDIA_TOOL_FAILED', `${tool} exited with ${exitCode ?? 'a signal'}`);
  }
}

/** The tool succeeded but said nothing usable (no stream, no frame written). */
export class MediaUnreadableError extends MediaError {
  constructor(detail: string) {
    super('MEDIA_UNREADABLE', detail);
  }
}
