export * from './slug.js';
export * from './errors.js';
export * from './constants.js';
export * from './subjects.js';
export * from './blog-categories.js';
export * from './format.js';
export * from './meta.js';
export * from './users.js';
