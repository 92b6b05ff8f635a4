import type { OwnUser, PublicUser } from '@chapterwise/shared';
import type { UserRow } from '../../db/schema/index.js';

/** The signed-in user's own account in the spec's wire names. Never the hash or a token. */
export function presentOwnUser(row: UserRow): OwnUser {
  return {
    _id: row.id,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    bio: row.bio,
    createdAt: row.createdAt.toISOString(),
    websiteUrl: row.websiteUrl,
    instagramUrl: row.instagramUrl,
    twitterUrl: row.twitterUrl,
    facebookUrl: row.facebookUrl,
    avatar: row.avatar,
    address: row.address,
    city: row.city,
    state: row.state,
    postal: row.postal,
    country: row.country,
    generationCredits: row.generationCredits,
    isSubscribed: row.isSubscribed,
    imageGenerationCredits: row.imageGenerationCredits,
    modelTrainingCredits: row.modelTrainingCredits,
    isAdmin: row.role === 'admin',
  };
}

/** What a public profile shows: no email, no address, no credits. */
export function presentPublicUser(row: UserRow): PublicUser {
  return {
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    bio: row.bio,
    createdAt: row.createdAt.toISOString(),
    avatar: row.avatar,
    websiteUrl: row.websiteUrl,
    instagramUrl: row.instagramUrl,
    twitterUrl: row.twitterUrl,
    facebookUrl: row.facebookUrl,
  };
}
