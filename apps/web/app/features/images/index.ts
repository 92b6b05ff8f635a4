export * from './api';
export { Studio } from './components/studio';
export { ProfilePosts } from './components/profile-posts';
