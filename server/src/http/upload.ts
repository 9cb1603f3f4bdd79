import fs from 'node:fs';
import type { Request, Response } from 'express';
import multer from 'multer';
import { badRequest } from '../errors/http-error.js';
import { assertNoNulCharacters } from './parse-request.js';

export interface UploadedFile {
  path: string;
  size: number;
  originalName: string;
  /** The client's claim; never trusted for the type (types are sniffed from content). */
  claimedType: string;
}

export interface UploadOptions {
  /** Where uploads are streamed to (never held in memory). */
  directory: string;
  /** Uploads of this many bytes or more are refused with 400. */
  maxBytes: number;
  /** Text fields allowed beside `file`. */
  maxFields?: number;
}

/**
 * Streams the multipart part `file` to disk and returns it with the text fields. Multer's limit
 * errors reach the error handler as 400s, and multer removes a partial file itself.
 */
export async function receiveUpload(req: Request, res: Response, options: UploadOptions): Promise<{ file?: UploadedFile; fields: Record<string, unknown> }> {
  await fs.promises.mkdir(options.directory, { recursive: true });
  const middleware = multer({
    storage: multer.diskStorage({ destination: options.directory }),
    limits: { fileSize: options.maxBytes - 1, files: 1, fields: options.maxFields ?? 0, fieldSize: 64 * 1024, parts: (options.maxFields ?? 0) + 1 },
  }).single('file');
  await new Promise<void>((resolve, reject) => middleware(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  const file = req.file;
  const fields = (req.body ?? {}) as Record<string, unknown>;
  // The client's file name is only ever a label: multer names the stored file itself (random hex).
  const originalName = file && Buffer.from(file.originalname, 'latin1').toString('utf8');
  try {
    // A part named `file` without a filename arrives as a text field: say so rather than "should not exist".
    if ('file' in fields) throw badRequest('file must be a file part (Content-Disposition with a filename), not a text field');
    assertNoNulCharacters(fields, 'body');
    assertNoNulCharacters({ 'file name': originalName }, 'body');
  } catch (err) {
    if (file) await fs.promises.rm(file.path, { force: true });
    throw err;
  }
  return { fields, file: file && { path: file.path, size: file.size, originalName: originalName ?? '', claimedType: file.mimetype } };
}
