/**
 * Well-known books typed the way teachers type them (lower case, no article, with or without
 * the author, one typo), with the book a teacher means: its title (any edition) and author.
 * `dev` cases were used to tune the ranking; `held-out` cases were written at the same time
 * and only measured (decision 015). `npm run books:search-eval` prints the figures.
 */
export interface SearchCase {
  query: string;
  title: RegExp;
  author: RegExp;
  set: 'dev' | 'held-out';
}

const c = (query: string, title: RegExp, author: RegExp, set: SearchCase['set']): SearchCase => ({
  query,
  title,
  author,
  set,
});

export const SEARCH_CASES: SearchCase[] = [
  // The issue's own examples.
  c('war of the worlds', /^the war of the worlds$/i, /wells/i, 'dev'),
  c('war of the worlds wells', /^the war of the worlds$/i, /wells/i, 'dev'),
  c('just so stories', /^just so stories/i, /kipling/i, 'dev'),
  c('kipling just so', /^just so stories/i, /kipling/i, 'dev'),
  c('origin of species', /origin of species/i, /darwin/i, 'dev'),
  // Titles alone.
  c('frankenstein', /^frankenstein/i, /shelley/i, 'dev'),
  c('pride and prejudice', /^pride and prejudice/i, /austen/i, 'dev'),
  c('moby dick', /^moby.dick/i, /melville/i, 'held-out'),
  c('alice in wonderland', /alice.s adventures in wonderland/i, /carroll/i, 'dev'),
  c('sherlock holmes', /sherlock holmes/i, /doyle/i, 'held-out'),
  c('tale of two cities', /^a tale of two cities/i, /dickens/i, 'dev'),
  c('dracula', /^dracula$/i, /stoker/i, 'held-out'),
  c('jane eyre', /^jane eyre/i, /bront/i, 'dev'),
  c('wuthering heights', /^wuthering heights/i, /bront/i, 'held-out'),
  c('tom sawyer', /adventures of tom sawyer/i, /twain/i, 'dev'),
  c('huckleberry finn', /huckleberry finn/i, /twain/i, 'held-out'),
  c('picture of dorian gray', /^the picture of dorian gray/i, /wilde/i, 'dev'),
  c('little women', /^little women/i, /alcott/i, 'held-out'),
  c('importance of being earnest', /importance of being earnest/i, /wilde/i, 'dev'),
  c('jungle book', /^the jungle book/i, /kipling/i, 'held-out'),
  c('heart of darkness', /^heart of darkness/i, /conrad/i, 'dev'),
  c('peter pan', /^peter pan/i, /barrie/i, 'held-out'),
  c('wizard of oz', /wizard of oz/i, /baum/i, 'dev'),
  c('anne of green gables', /^anne of green gables/i, /montgomery/i, 'held-out'),
  c('christmas carol', /^a christmas carol/i, /dickens/i, 'dev'),
  c('romeo and juliet', /^romeo and juliet/i, /shakespeare/i, 'held-out'),
  c('hamlet', /hamlet/i, /shakespeare/i, 'dev'),
  c('call of the wild', /^the call of the wild/i, /london/i, 'held-out'),
  c('gullivers travels', /^gulliver.s travels/i, /swift/i, 'dev'),
  c('secret garden', /^the secret garden/i, /burnett/i, 'held-out'),
  c('count of monte cristo', /^the count of monte cristo/i, /dumas/i, 'dev'),
  c('crime and punishment', /^crime and punishment/i, /dostoyevsky|dostoevsky/i, 'held-out'),
  c('yellow wallpaper', /^the yellow wall.?paper/i, /gilman/i, 'dev'),
  c('around the world in eighty days', /^around the world in eighty days/i, /verne/i, 'held-out'),
  c('wind in the willows', /^the wind in the willows/i, /grahame/i, 'dev'),
  c('leaves of grass', /^leaves of grass/i, /whitman/i, 'held-out'),
  // With the author, either side.
  c('great expectations dickens', /^great expectations/i, /dickens/i, 'dev'),
  c('treasure island stevenson', /^treasure island/i, /stevenson/i, 'held-out'),
  c('time machine wells', /^the time machine/i, /wells/i, 'dev'),
  c('scarlet letter hawthorne', /^the scarlet letter/i, /hawthorne/i, 'held-out'),
  c('macbeth shakespeare', /macbeth/i, /shakespeare/i, 'dev'),
  c('homer odyssey', /^the odyssey/i, /homer/i, 'held-out'),
  c('tolstoy war and peace', /^war and peace/i, /tolstoy/i, 'dev'),
  c('paradise lost milton', /^paradise lost/i, /milton/i, 'held-out'),
  c('austen emma', /^emma$/i, /austen/i, 'dev'),
  c('prince machiavelli', /^the prince/i, /machiavelli/i, 'held-out'),
  // An author alone: one of the author's books first.
  c('wells', /./, /^wells, h/i, 'dev'),
  c('dickens', /./, /^dickens, charles/i, 'dev'),
  c('mark twain', /./, /^twain, mark/i, 'held-out'),
  c('jane austen', /./, /^austen, jane/i, 'held-out'),
  // One typo.
  c('frankenstien', /^frankenstein/i, /shelley/i, 'dev'),
  c('treasure iland', /^treasure island/i, /stevenson/i, 'held-out'),
  c('dracular', /^dracula$/i, /stoker/i, 'dev'),
  c('moby dik', /^moby.dick/i, /melville/i, 'held-out'),
  c('war of the wrolds', /^the war of the worlds$/i, /wells/i, 'dev'),
  c('wuthering hieghts', /^wuthering heights/i, /bront/i, 'held-out'),
  c('sherlok holmes', /sherlock holmes/i, /doyle/i, 'dev'),
  c('gulivers travels', /^gulliver.s travels/i, /swift/i, 'held-out'),
  c('pride and predjudice', /^pride and prejudice/i, /austen/i, 'dev'),
  c('hound of the baskervils', /^the hound of the baskervilles/i, /doyle/i, 'held-out'),
  // Added after the first held-out measure (which found the "treasure iland" bug), and only
  // measured after the fix: typos that are, or start, rare real words.
  c('picture of dorain gray', /^the picture of dorian gray/i, /wilde/i, 'held-out'),
  c('hamlit', /hamlet/i, /shakespeare/i, 'held-out'),
  c('secret gardn', /^the secret garden/i, /burnett/i, 'held-out'),
  c('littel women', /^little women/i, /alcott/i, 'held-out'),
  c('odysey homer', /^the odyssey/i, /homer/i, 'held-out'),
  c('call of the wilde', /^the call of the wild/i, /london/i, 'held-out'),
  c('scarlet leter', /^the scarlet letter/i, /hawthorne/i, 'held-out'),
  c('great expectation', /^great expectations/i, /dickens/i, 'held-out'),
  // Found while timing searches (bench terms), fixed and so tuned on: a typo beside a real
  // but rarer word ("heights" was corrected to "nights" with it).
  c('wutherng heights', /^wuthering heights/i, /bront/i, 'dev'),
];
