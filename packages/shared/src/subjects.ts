import { slugify } from './slug.js';

/**
 * The teacher-facing subjects of the book directory and the "Book Materials" mega menu
 * (spec §2: about 50 subjects). The catalogue importer maps Gutenberg subjects and
 * bookshelves onto these names; each book gets one primary subject. "Periodicals & Reference"
 * and "Sports & Hobbies" were added because about 3,000 English books (magazines such as
 * Punch, encyclopedias, how-to books) fit nothing else.
 */
export const SUBJECT_NAMES = [
  'Adventure',
  'African American History',
  'American History',
  'American Literature',
  'Ancient Classics',
  'Art & Architecture',
  'Biography',
  'British Literature',
  "Children's Literature",
  'Christmas Stories',
  'Cookery',
  'Detective Fiction',
  'Drama',
  'Economics',
  'Education',
  'Essays',
  'Fairy Tales',
  'Fantasy',
  'Folklore & Mythology',
  'French Literature',
  'Geography & Travel',
  'German Literature',
  'Gothic Fiction',
  'Historical Fiction',
  'History',
  'Horror',
  'Humor',
  'Language & Grammar',
  'Law',
  'Letters & Diaries',
  'Literary Criticism',
  'Mathematics',
  'Medicine & Health',
  'Music',
  'Nature',
  'Novels',
  'Periodicals & Reference',
  'Philosophy',
  'Poetry',
  'Politics & Government',
  'Psychology',
  'Religion',
  'Romance',
  'Russian Literature',
  'Science',
  'Science Fiction',
  'Sea Stories',
  'Short Stories',
  'Social Sciences',
  'Sports & Hobbies',
  'Technology',
  'War',
  'Westerns',
  "Women's Studies",
] as const;

export type SubjectName = (typeof SUBJECT_NAMES)[number];

export const SUBJECTS: ReadonlyArray<{ name: SubjectName; slug: string }> = SUBJECT_NAMES.map(
  (name) => ({ name, slug: slugify(name) }),
);
