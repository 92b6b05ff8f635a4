import type { FastifyInstance } from 'fastify';
import { SecretBox } from '../../lib/secret-box.js';
import { createGoogleClient, type GoogleClient } from '../../providers/google/index.js';
import { googleFormsRoutes } from './google-forms.routes.js';
import { GoogleFormsService } from './google-forms.service.js';

/**
 * Wires "Send to Google Forms": Google's client when GOOGLE_CLIENT_ID/SECRET are set (else the
 * feature answers "not set up" and the web hides its button), tokens sealed with a key derived
 * from JWT_SECRET, and the routes under /api/v1. Needs the materials module.
 */
export async function registerGoogleForms(
  app: FastifyInstance,
  client?: GoogleClient | null,
): Promise<void> {
  const service = new GoogleFormsService({
    db: app.db,
    client: client === undefined ? createGoogleClient(app.config.google) : client,
    materials: app.materials,
    box: new SecretBox(app.config.jwtSecret, 'google-oauth-tokens'),
    log: app.log,
  });
  await app.register(googleFormsRoutes(service), { prefix: '/api/v1' });
}
