export * from './users.js';
export * from './books.js';
