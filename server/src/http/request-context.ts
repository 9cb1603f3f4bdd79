import type { AuthContext } from '../features/organisations/organisations.service.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by apiKeyAuth on every /v1 route that needs a key. */
    auth?: AuthContext;
  }
}

export {};
