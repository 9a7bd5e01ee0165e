import type { Request, RequestHandler, Response } from 'express';
import typeis from 'type-is';
import { ApiError } from '../errors';
import { messages } from '../messages';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

// A form route takes a few short text fields (login: username and password): anything much bigger is refused
// before it is read whole. multer loads with the first multipart body: most callers send a urlencoded form.
let multipart: Promise<RequestHandler> | undefined;
const multipartReader = () =>
  (multipart ??= import('multer').then(({ default: multer }) =>
    multer({
      storage: multer.memoryStorage(),
      limits: {
        fields: 20,
        parts: 20,
        fieldNameSize: 100,
        fieldSize: 8 * 1024,
        headerPairs: 20,
        fieldNestingDepth: 0,
      },
    }).none(),
  ));

const TOO_LARGE = new Set(['LIMIT_PART_COUNT', 'LIMIT_FIELD_KEY', 'LIMIT_FIELD_VALUE', 'LIMIT_FIELD_COUNT']);

/**
 * The body of a form route, read as FastAPI reads a `Form` body: `application/x-www-form-urlencoded` (already parsed by
 * the API's urlencoded parser) or `multipart/form-data` (the FastAPI template's own generated client sends this one).
 * Any other body, JSON included, is not a form: it is read as no fields, so each field is reported missing (422).
 */
export async function readForm(req: Request, res: Response): Promise<void> {
  if (!typeis(req, FORM_TYPES)) {
    req.body = {};
    return;
  }
  if (!typeis(req, ['multipart/form-data'])) return;
  const read = await multipartReader();
  return new Promise((resolve, reject) => {
    read(req, res, (error?: unknown) => {
      if (!error) return resolve();
      const code = (error as { code?: string }).code;
      if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
        return reject(new ApiError(400, messages.formFieldsOnly));
      }
      if (code && TOO_LARGE.has(code)) return reject(new ApiError(413, messages.bodyTooLarge));
      // Busboy's own complaints: no boundary, a truncated body, a malformed part header.
      return reject(new ApiError(400, messages.malformedMultipart));
    });
  });
}
