import { slugify, type SubjectName } from '@chapterwise/shared';

/** What the catalogue says about a book's topic. */
export interface SubjectSources {
  /** Bookshelves, with "Category: " values given without that prefix. */
  bookshelves: string[];
  /** Library of Congress subject headings. */
  lcsh: string[];
  /** Library of Congress class codes ("PR", "PZ", "QA76"). */
  lcc: string[];
}

interface Rule {
  subject: SubjectName;
  shelves?: RegExp;
  lcsh?: RegExp;
  lcc?: RegExp;
}

/**
 * Gutenberg's bookshelves, subject headings and class codes mapped onto the teacher-facing
 * subjects. Order matters: the first rule a book matches gives its primary subject, so the
 * most specific and most classroom-relevant subjects come first (a children's fairy tale is
 * "Fairy Tales", a play is "Drama"), and the broad literature-by-country ones come last.
 */
const RULES: Rule[] = [
  { subject: 'Christmas Stories', shelves: /^Christmas$/, lcsh: /\bChristmas\b/ },
  { subject: 'Fairy Tales', shelves: /^Fairy Tales$/i, lcsh: /\bFairy tales\b/i },
  {
    subject: "Children's Literature",
    shelves:
      /^(Children & Young Adult Reading|Children's (Fiction|Literature|Book Series|Picture Books|Instructional Books|Myths|Verse|History)|School Stories)$/,
    lcsh: /\b(Juvenile (fiction|literature|poetry)|Children's (stories|poetry|literature))\b/i,
    lcc: /^PZ/,
  },
  {
    subject: 'Drama',
    // Not the "Plays/Films/Dramas" bookshelf: it also holds novels that became films.
    lcsh: /(--\s*Drama$|^Drama$|\b[Dd]rama\b(?! -- History)|\bTragedies\b|\bComedies\b|\bTragicomedy\b|\bOne-act plays\b)/,
    lcc: /^PR2[7-9]\d\d/,
  },
  {
    subject: 'Poetry',
    shelves: /^Poetry$/,
    lcsh: /(\bPoetry\b|\bPoems\b|^Verse\b|\bBallads\b|\bSonnets\b)/,
  },
  {
    subject: 'Folklore & Mythology',
    shelves: /^(Mythology, Legends & Folklore|Folklore|Mythology)$/,
    lcsh: /\b(Mythology|Folklore|Legends)\b/,
  },
  { subject: 'Sea Stories', shelves: /^Pirates/, lcsh: /\b(Sea stories|Seafaring life|Whaling)\b/ },
  { subject: 'Westerns', shelves: /^Western$/, lcsh: /\bWestern stories\b/ },
  {
    subject: 'Detective Fiction',
    shelves: /^(Crime, Thrillers and Mystery|Detective Fiction|Crime Fiction|Mystery Fiction)$/,
    lcsh: /\b(Detective and mystery|Mystery fiction|Detectives)\b/,
  },
  { subject: 'Horror', shelves: /^Horror$/, lcsh: /\b(Horror tales|Ghost stories|Vampires)\b/ },
  { subject: 'Gothic Fiction', shelves: /^Gothic Fiction$/, lcsh: /\bGothic\b/ },
  {
    subject: 'Science Fiction',
    shelves: /^(Science Fiction|Science-Fiction & Fantasy)$/,
    lcsh: /\bScience fiction\b/i,
  },
  { subject: 'Fantasy', shelves: /^Fantasy$/, lcsh: /\bFantasy (fiction|literature)\b/ },
  {
    subject: 'Historical Fiction',
    shelves: /^(Historical Novels|Historical Fiction)$/,
    lcsh: /\bHistorical fiction\b/,
  },
  {
    subject: 'War',
    shelves: /^(History - Warfare|World War I|World War II|US Civil War|Napoleonic\(1750-1815\))$/,
    lcsh: /\b(World War, 19|War stories|Military (art|history)|Battles)\b/,
    lcc: /^[UV]/,
  },
  { subject: 'Romance', shelves: /^Romance$/, lcsh: /\b(Love stories|Courtship)\b/ },
  { subject: 'Humor', shelves: /^(Humour|Humor)$/, lcsh: /\b(Humor|Wit and humor)\b/ },
  { subject: 'Adventure', shelves: /^Adventure$/, lcsh: /\bAdventure stories\b/ },
  { subject: 'Short Stories', shelves: /^Short Stories$/, lcsh: /\bShort stories\b/ },
  {
    subject: 'Letters & Diaries',
    lcsh: /(\bCorrespondence\b|\bDiaries\b|-- Letters$)/,
  },
  {
    subject: 'Essays',
    shelves: /^Essays, Letters & Speeches$/,
    lcsh: /(\bEssays\b|\bSpeeches\b|\bAddresses\b)/,
  },
  {
    subject: 'African American History',
    shelves: /^Slavery$/,
    lcsh: /\b(African Americans|Slavery|Slaves|Abolitionists)\b/,
  },
  { subject: 'Biography', shelves: /^Biographies$/, lcsh: /\bBiography\b/ },
  {
    subject: 'American History',
    shelves: /^(History - American|American Revolutionary War|United States|Native America)$/,
    lcsh: /^United States -- History\b/,
    lcc: /^(E|F)\d*/,
  },
  {
    subject: 'Ancient Classics',
    shelves: /^(Classical Antiquity|History - Ancient)$/,
    lcsh: /\b(Greek literature|Latin literature|Epic poetry, Greek|Greece -- History|Rome -- History)\b/,
    lcc: /^PA/,
  },
  {
    subject: 'History',
    shelves: /^History - /,
    lcsh: /-- History\b/,
    lcc: /^[CD]/,
  },
  {
    subject: 'Geography & Travel',
    shelves: /^(Travel Writing|Travel|Australia|Canada|Africa)$/,
    lcsh: /\b(Description and travel|Voyages and travels|Discovery and exploration)\b/,
    lcc: /^G[0-9A-F]?/,
  },
  {
    subject: 'Religion',
    shelves:
      /^(Religion|Spirituality|History - Religious|Christianity|Judaism|Latter Day Saints|Islam|Buddhism)$/,
    lcsh: /\b(Bible|Christianity|Church|Sermons|Theology|God)\b/,
    lcc: /^B[L-X]/,
  },
  {
    subject: 'Psychology',
    shelves: /^(Psychiatry|Psychology)$/,
    lcsh: /\bPsychology\b/,
    lcc: /^BF/,
  },
  {
    subject: 'Philosophy',
    shelves: /^(Philosophy & Ethics|Philosophy)$/,
    lcsh: /\b(Philosophy|Ethics)\b/,
    lcc: /^B[A-J]?\d*$/,
  },
  {
    subject: 'Politics & Government',
    shelves: /^Politics$/,
    lcsh: /\b(Politics and government|Political science)\b/,
    lcc: /^J/,
  },
  { subject: 'Law', shelves: /^Law & Criminology$/, lcsh: /\bLaw\b/, lcc: /^K/ },
  {
    subject: 'Economics',
    shelves: /^(Economics|Business|Management)$/,
    lcsh: /\b(Economics|Economic conditions|Commerce|Finance)\b/,
    lcc: /^H[B-J]/,
  },
  {
    subject: "Women's Studies",
    shelves: /^(Gender & Sexuality Studies|Women's Studies)$/,
    lcsh: /\bWomen\b(?! -- Fiction)/,
  },
  {
    subject: 'Social Sciences',
    shelves:
      /^(Sociology|Archaeology & Anthropology|Parenthood & Family Relations|Old Age & the Elderly)$/,
    lcsh: /\b(Sociology|Anthropology|Archaeology|Ethnology)\b/,
    lcc: /^(H|GN)/,
  },
  {
    subject: 'Education',
    shelves: /^(Teaching & Education|History - Schools & Universities)$/,
    lcsh: /\b(Education|Teaching|Schools)\b/,
    lcc: /^L/,
  },
  {
    subject: 'Language & Grammar',
    shelves: /^(Language & Communication|Dictionaries)$/,
    lcsh: /\b(language -- Grammar|Grammar|Dictionaries|Readers)\b/,
    lcc: /^P[A-E]?$|^PE/,
  },
  {
    subject: 'Literary Criticism',
    lcsh: /\b(Criticism and interpretation|History and criticism|Authorship)\b/,
    lcc: /^PN/,
  },
  {
    subject: 'Mathematics',
    shelves: /^Mathematics$/,
    lcsh: /\b(Mathematics|Arithmetic|Geometry|Algebra)\b/,
    lcc: /^QA/,
  },
  {
    subject: 'Medicine & Health',
    shelves: /^(Health & Medicine|Nutrition|Drugs|Pharmacology|Alcohol)$/,
    lcsh: /\b(Medicine|Hygiene|Health|Diseases|Nursing)\b/,
    lcc: /^R/,
  },
  {
    subject: 'Nature',
    shelves: /^(Nature|Environmental Issues|Animals|Animal|Gardening|Animals-.*|Plants|Birds)$/,
    lcsh: /\b(Natural history|Animals|Birds|Plants|Botany|Zoology|Insects|Gardening)\b/,
    lcc: /^(QH|QK|QL|SB|SF|SK)/,
  },
  {
    subject: 'Science',
    shelves: /^(Science - .*|Biochemistry|Biology|Physics|Chemistry|Astronomy)$/,
    lcsh: /\b(Science|Physics|Chemistry|Astronomy|Geology|Biology|Evolution)\b/,
    lcc: /^Q/,
  },
  {
    subject: 'Technology',
    shelves: /^(Engineering & Technology|Technology|Agricultural|Farming)$/,
    lcsh: /\b(Technology|Engineering|Inventions|Machinery|Electricity|Agriculture)\b/,
    lcc: /^(T|S)/,
  },
  {
    subject: 'Cookery',
    shelves: /^(Cooking & Drinking|Cookbooks and Cooking)$/,
    lcsh: /\b(Cooking|Cookery)\b/,
    lcc: /^TX/,
  },
  {
    subject: 'Art & Architecture',
    shelves: /^(Art|Architecture|Fashion|Crafts)$/,
    lcsh: /\b(Art|Painting|Painters|Architecture|Sculpture)\b/,
    lcc: /^N/,
  },
  { subject: 'Music', shelves: /^Music$/, lcsh: /\b(Music|Songs|Hymns)\b/, lcc: /^M/ },
  {
    subject: 'Sports & Hobbies',
    shelves: /^(Sports|How To \.\.\.|Hobbies|Games)$/,
    lcsh: /\b(Sports|Games|Amusements|Hunting|Fishing)\b/,
    lcc: /^GV/,
  },
  {
    subject: 'Periodicals & Reference',
    shelves:
      /^(Journals|Encyclopedias|Reference|Reports & Conference Proceedings|Journalism|Punch|Notes and Queries|Scientific American|The Atlantic Monthly|Blackwood's Edinburgh Magazine|Chambers's Edinburgh Journal|Harper's Young People|Contemporary Reviews|The Mirror of Literature, Amusement, and Instruction|The American Missionary)$/,
    lcsh: /\b(Periodicals|Encyclopedias and dictionaries)\b/,
    lcc: /^(A|Z)/,
  },
  { subject: 'Russian Literature', shelves: /^Russian Literature$/, lcc: /^PG/ },
  { subject: 'French Literature', shelves: /^French Literature$/, lcc: /^PQ/ },
  { subject: 'German Literature', shelves: /^German Literature$/, lcc: /^PT/ },
  { subject: 'British Literature', shelves: /^British Literature$/, lcc: /^PR/ },
  { subject: 'American Literature', shelves: /^American Literature$/, lcc: /^PS/ },
  {
    subject: 'Novels',
    shelves: /^(Novels|Classics of Literature|Literature - Other)$/,
    lcsh: /\bFiction\b/,
  },
];

/** Where a book with nothing to go on lands. */
const FALLBACK: SubjectName = 'Essays';

/**
 * The teacher-facing subjects of a book, primary first (never empty). A subject counts when
 * any bookshelf, subject heading or class code matches its rule.
 */
export function mapSubjects(sources: SubjectSources): SubjectName[] {
  const found: SubjectName[] = [];
  for (const rule of RULES) {
    const hit =
      (rule.shelves && sources.bookshelves.some((s) => rule.shelves!.test(s))) ||
      (rule.lcsh && sources.lcsh.some((s) => rule.lcsh!.test(s))) ||
      (rule.lcc && sources.lcc.some((s) => rule.lcc!.test(s)));
    if (hit) found.push(rule.subject);
  }
  return found.length > 0 ? found : [FALLBACK];
}

/** Name → slug for the teacher-facing subjects. */
export function subjectSlug(name: string): string {
  return slugify(name);
}
