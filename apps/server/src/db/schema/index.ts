export * from './users.js';
export * from './newsletter.js';
