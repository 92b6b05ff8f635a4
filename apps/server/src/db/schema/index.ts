export * from './users.js';
export * from './materials.js';
