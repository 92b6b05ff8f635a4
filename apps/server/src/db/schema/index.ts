export * from './users.js';
export * from './newsletter.js';
export * from './books.js';
export * from './materials.js';
export * from './billing.js';
export * from './blog.js';
export * from './assistant.js';
export * from './images.js';
