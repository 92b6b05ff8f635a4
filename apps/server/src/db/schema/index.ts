export * from './users.js';
export * from './newsletter.js';
export * from './books.js';
