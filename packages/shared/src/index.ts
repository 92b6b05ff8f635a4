// First: configures zod before any schema below is built.
import './zod-setup.js';

export * from './slug.js';
export * from './errors.js';
export * from './constants.js';
export * from './subjects.js';
export * from './blog-categories.js';
export * from './blog.js';
export * from './format.js';
export * from './meta.js';
export * from './users.js';
export * from './newsletter.js';
export * from './imports.js';
export * from './books.js';
export * from './materials.js';
export * from './material-edits.js';
export * from './exports.js';
export * from './billing.js';
export * from './assistant.js';
export * from './images.js';
export * from './google-forms.js';
export * from './shop.js';
