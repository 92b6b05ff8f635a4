import { describe, expect, it } from 'vitest';
import { analyse, type Analysis, type Sentence } from './analyse.js';
import {
  bareSingularSlot,
  classFault,
  countable,
  comparedTo,
  countedSlot,
  kindOfKey,
  massInPassage,
  nounNumber,
  pluralLooking,
  seldomPlural,
  subjectNumber,
  fragmentOfName,
  keyBlank,
  usageFault,
  clozeBlankFault,
  clozeOptionFault,
  sameRoleElsewhere,
  type ClozeTarget,
} from './gates.js';
import { pairedQuotes, pairedWithNoun, quote } from './questions.js';

// Sentences written for these tests (CC0); none is taken from an evaluation passage.
const HARBOUR = [
  'Every morning the ferryman Tomas walked down the street to the harbour.',
  'Strong winds batter the coast every winter, and the harbour wall cracks.',
  'Engineers tested the piston engine on the pier in 1851.',
  'In 1853 the engine pulled a barge of coal for nearly seventy kilometers along the canal.',
  'The new dam will increase the harvest, not decrease it, said the engineer.',
  'By the fifteenth century the town had a guild of shipwrights.',
  'Tomas repaired the rigging of the schooner while the apprentice watched.',
  'The apprentice later became a shipwright in Lisbon.',
  'In spring, French sailors brought salt from Lisbon, and a sparrow nested in the rigging of their ship.',
  'Tomas told the apprentice that a careful shipwright never hurries.',
  'The old ropes were mended by sailmakers and riggers in the long shed.',
  'The crew were very relieved when the storm passed.',
  'The apprentice hammered the planks and caulked the seams.',
  'A carpenter named Aurelio built the new pier of oak.',
].join(' ');

function sentenceWith(a: Analysis, start: string): Sentence {
  const s = a.sentences.find((x) => x.text.startsWith(start));
  if (!s) throw new Error(`no sentence "${start}"`);
  return s;
}

function target(s: Sentence, word: string, kind: ClozeTarget['kind']): ClozeTarget {
  const start = s.text.indexOf(word);
  if (start < 0) throw new Error(`no "${word}"`);
  return { answer: word, start, end: start + word.length, kind };
}

describe('cloze blanks worth asking (issue 22, trivial)', () => {
  const a = analyse(HARBOUR);

  it('does not blank an everyday word the words around it supply ("walked down the _____")', () => {
    const s = sentenceWith(a, 'Every morning');
    expect(clozeBlankFault(a, s, target(s, 'street', 'noun'), 7)).toBe('everyday word');
  });

  it('does not blank a unit, an ordinal or calendar word, or a word after a number', () => {
    const canal = sentenceWith(a, 'In 1853');
    expect(clozeBlankFault(a, canal, target(canal, 'kilometers', 'noun'), 7)).toBe('unit');
    const guild = sentenceWith(a, 'By the fifteenth');
    expect(clozeBlankFault(a, guild, target(guild, 'century', 'noun'), 7)).toBe('unit');
  });

  it('does not blank a word whose opposite stands in the sentence ("increase, not _____")', () => {
    const s = sentenceWith(a, 'The new dam');
    expect(clozeBlankFault(a, s, target(s, 'decrease', 'verb'), 7)).toBe(
      'opposite in its sentence',
    );
  });

  it('does not offer a verb as a noun blank ("winds _____ the coast")', () => {
    const s = sentenceWith(a, 'Strong winds');
    expect(clozeBlankFault(a, s, target(s, 'batter', 'noun'), 7)).toBe('reads as a verb');
  });

  it('does not blank the first noun of a compound ("the _____ engine")', () => {
    const s = sentenceWith(a, 'Engineers tested');
    expect(clozeBlankFault(a, s, target(s, 'piston', 'noun'), 7)).toBe('half of a compound');
  });

  it('does not blank a noun paired with another by "and" in multiple choice ("_____ and riggers")', () => {
    const s = sentenceWith(a, 'The old ropes');
    expect(pairedWithNoun(s, { ...target(s, 'sailmakers', 'noun'), distractors: [] })).toBe(true);
    expect(pairedWithNoun(s, { ...target(s, 'ropes', 'noun'), distractors: [] })).toBe(false);
  });

  it('does not take a describing word after "very" for a verb ("very _____ when")', () => {
    const s = sentenceWith(a, 'The crew');
    expect(clozeBlankFault(a, s, target(s, 'relieved', 'verb'), 7)).toBe('describing word');
  });

  it('does not blank a year or a count (recall of a detail)', () => {
    const s = sentenceWith(a, 'Engineers tested');
    expect(clozeBlankFault(a, s, target(s, '1851', 'number'), 7)).toBe('number recall');
  });

  it('does not blank a person named only once in passing, nor the main person', () => {
    const s = sentenceWith(a, 'A carpenter named');
    expect(clozeBlankFault(a, s, target(s, 'Aurelio', 'person'), 7)).toBe('name mentioned once');
    const t = sentenceWith(a, 'Tomas repaired');
    expect(clozeBlankFault(a, t, target(t, 'Tomas', 'person'), 7)).toBe('main person');
  });

  it('blanks a key word of the text, and a place only when the text comes back to it', () => {
    const s = sentenceWith(a, 'The apprentice later');
    expect(clozeBlankFault(a, s, target(s, 'shipwright', 'noun'), 7)).toBeNull();
    expect(clozeBlankFault(a, s, target(s, 'Lisbon', 'place'), 7)).toBeNull();
    const rigging = sentenceWith(a, 'Tomas repaired');
    expect(clozeBlankFault(a, rigging, target(rigging, 'schooner', 'noun'), 7)).toBeNull();
  });
});

describe('cloze options that are fair wrong answers (issue 22, ambiguous and trivial)', () => {
  const a = analyse(HARBOUR);

  it('offers only years the text gives, never near misses such as 1852 for 1851', () => {
    const s = sentenceWith(a, 'Engineers tested');
    const year = target(s, '1851', 'number');
    expect(clozeOptionFault(a, year, '1853')).toBeNull();
    expect(clozeOptionFault(a, year, '1852')).toBe('number not in the text');
  });

  it('offers verbs in the form of the key ("mended" for "caulked", not "hurries")', () => {
    const s = sentenceWith(a, 'The apprentice hammered');
    const caulked = target(s, 'caulked', 'verb');
    expect(clozeOptionFault(a, caulked, 'hurries')).toBe('other form');
    expect(clozeOptionFault(a, caulked, 'mended')).toBeNull();
  });

  it('offers no -ing word among nouns ("the _____ of the schooner" with "rigging" for "seams")', () => {
    const s = sentenceWith(a, 'The apprentice hammered');
    expect(clozeOptionFault(a, target(s, 'seams', 'noun'), 'rigging')).toBe('other form');
  });

  it('offers no generic kind of person for a person noun ("woman" for "weaver")', () => {
    const s = sentenceWith(a, 'The apprentice later');
    const wright = target(s, 'shipwright', 'noun');
    expect(clozeOptionFault(a, wright, 'man')).toBe('generic person');
    expect(clozeOptionFault(a, wright, 'ferryman')).toBeNull();
  });

  it('offers no word more general than the key, which would fit as well ("animal" for "sparrow")', () => {
    const s = sentenceWith(a, 'In spring');
    expect(clozeOptionFault(a, target(s, 'sparrow', 'noun'), 'animal')).toBe('more general word');
  });

  it('offers no proper adjective in lower case ("french") and no time word for a thing', () => {
    const s = sentenceWith(a, 'In spring');
    expect(clozeOptionFault(a, target(s, 'salt', 'noun'), 'french')).not.toBeNull();
    expect(clozeOptionFault(a, target(s, 'salt', 'noun'), 'century')).toBe('unit');
  });
});

describe('cloze stems keep their quotation marks paired', () => {
  it('puts a quotation inside the stem in single marks', () => {
    expect(quote('"Keep close to the harbour wall," he said.')).toBe(
      '“‘Keep close to the harbour wall,’ he said.”',
    );
    expect(quote('"Row home before dark."')).toBe('“Row home before dark.”');
    expect(quote('The tide turned.')).toBe('“The tide turned.”');
  });

  it('knows a sentence that holds only half a quotation', () => {
    expect(pairedQuotes('"Keep close to the wall," he said.')).toBe(true);
    expect(pairedQuotes('"Keep close to the wall, he said.')).toBe(false);
  });
});

// Written for these tests (CC0): a short text where two words name the same people.
const ORCHESTRA = [
  'The conductor raised her baton and the hall fell silent.',
  'The violinists tuned their strings while the drummer waited.',
  'Most musicians rehearse every day for hours.',
  'The players rehearse every day in the hall.',
  'After the concert the cellist packed her bow into its case.',
].join(' ');

describe('cloze options must compete in meaning, and not be right as well (issues 13, 22)', () => {
  it('drops an option whose only class in common with the key is "entity" or "abstraction"', () => {
    // "The gland releases _____" with "elbow": a hormone and a body part share no nameable class.
    expect(classFault('insulin', 'elbow')).toBe('unrelated meaning');
    expect(classFault('thimble', 'courage')).toBe('unrelated meaning');
  });

  it('keeps options of one broad class that are checkably different', () => {
    expect(classFault('copper', 'zinc')).toBeNull();
    expect(classFault('harbour', 'valley')).toBeNull();
    expect(classFault('scribe', 'goldsmith')).toBeNull();
  });

  it('drops made things, events or ideas of the same narrow class, which often both fit', () => {
    // "typed it on her _____": a notebook or a laptop; "a _____ swept the coast": typhoon or gale.
    expect(classFault('notebook', 'laptop')).toBe('same narrow class');
    expect(classFault('typhoon', 'gale')).toBe('same narrow class');
    expect(classFault('physics', 'chemistry')).toBe('same narrow class');
  });

  it('drops a kind of person that can be the same person as the key (kin, age, sex)', () => {
    // The captain may be a grandfather; a teenager may be a student. A captain is not a toddler.
    expect(classFault('captain', 'grandfather')).toBe('person of another kind');
    expect(classFault('teenager', 'student')).toBe('person of another kind');
    expect(classFault('teenager', 'toddler')).toBeNull();
  });

  it('drops an option that is not a noun for a noun key ("a _____ fair" with "drear")', () => {
    expect(classFault('maiden', 'drear')).toBe('not a noun');
  });

  it('drops a word the passage puts in the same role elsewhere (the same people, two names)', () => {
    const a = analyse(ORCHESTRA);
    // "musicians rehearse" and "players rehearse": either fits "Most _____ rehearse".
    expect(sameRoleElsewhere(a, 'musician', 'player', 'NOUN')).toBe(true);
    expect(sameRoleElsewhere(a, 'musician', 'cellist', 'NOUN')).toBe(false);
  });
});

// Written for these tests (CC0).
const WORKSHOP = [
  'The mill used a water wheel and a screw press to squeeze the apples.',
  'Winter storms batter the orchard every year.',
  'A cooper made the barrels, and a carter drove them to Bristol.',
  'The apples were packed in straw before the journey.',
  'In a good year the cider was sold in Bristol and in London.',
  'Each barrel held a harvest of sweet juice.',
  'The cooper and the miller, Ned Hale and Tom Price, argued about the price.',
  'Ned Hale kept the accounts, and Tom Price kept the keys.',
  'A carter needs a strong horse, a wagon and a place to sleep.',
  'The farm had a pond, an oasis of shade and a barn.',
].join(' ');

describe('cloze options the passage itself rules out (issues 13, 22)', () => {
  const a = analyse(WORKSHOP);

  it('drops a word the passage only uses as half of a compound ("a skilled screw")', () => {
    expect(usageFault(a, 'screw')).toBe('half of a compound');
    expect(usageFault(a, 'cooper')).toBeNull();
  });

  it('drops a word the passage only uses as a verb before "the" ("storms batter the orchard")', () => {
    expect(usageFault(a, 'batter')).toBe('reads as a verb');
  });

  it('keeps nouns that need "a" out of a blank that stands without one ("packed in _____")', () => {
    const s = sentenceWith(a, 'The apples were packed');
    const straw = s.text.indexOf('straw');
    expect(bareSingularSlot(s, straw)).toBe(true);
    expect(countable(a, 'barrel')).toBe(true);
    expect(countable(a, 'place')).toBe(true);
    expect(countable(a, 'juice')).toBe(false);
    const t = sentenceWith(a, 'Each barrel held');
    expect(bareSingularSlot(t, t.text.indexOf('harvest'))).toBe(false);
    expect(clozeOptionFault(a, target(s, 'straw', 'noun'), 'barrel', s)).toBe('needs an article');
  });

  it('offers no everyday describing word for a describing word (it fits almost any noun)', () => {
    const s = sentenceWith(a, 'Each barrel held');
    expect(clozeOptionFault(a, target(s, 'sweet', 'adjective'), 'new')).toBe(
      'everyday describing word',
    );
  });

  it('offers no place or body of people among people ("Ned Hale and _____" with "Bristol")', () => {
    const s = sentenceWith(a, 'Ned Hale kept');
    expect(clozeOptionFault(a, target(s, 'Tom Price', 'person'), 'Bristol')).toBe('not a person');
    expect(clozeOptionFault(a, target(s, 'Tom Price', 'person'), 'Ned Hale')).toBeNull();
  });
});

describe('blanks chosen by importance, not rarity (issue 22, trivial)', () => {
  // Written for these tests (CC0): the press and its screw recur; the shawl is mentioned once.
  const PRESS = [
    'The cider press stood in the barn behind the house.',
    'Every autumn the farmer turned the screw of the press by hand.',
    'His wife tied on her shawl and carried the apples to the barn.',
    'The juice ran from the press into a wooden trough.',
    'A heavy screw pushed the board down onto the crushed apples.',
  ].join(' ');
  const a = analyse(PRESS);

  it('counts a word the passage repeats as a key blank, a thing named once in passing not', () => {
    const s = sentenceWith(a, 'A heavy screw');
    expect(keyBlank(a, target(s, 'screw', 'noun'))).toBe(true);
    const t = sentenceWith(a, 'His wife tied');
    expect(keyBlank(a, target(t, 'shawl', 'noun'))).toBe(false);
  });
});

describe('name options that cannot be fair (issues 13, 22)', () => {
  // Written for these tests (CC0).
  const MILL = [
    'In 1820 the mill at Ashford belonged to Peter Lane and Edith Marsh.',
    'Lane bought the grain, and Marsh sold the flour in Dover.',
    'A clerk named Hugh B. Tate kept the books.',
    'Later Tate became the mayor of Dover.',
    'Edith Marsh wrote to Lane from Dover every week.',
    'The mill burned in 1841, and Lane rebuilt it with stone.',
    'Farmers brought their wheat to the mill by cart.',
  ].join(' ');
  const a = analyse(MILL);

  it('knows a name the text only writes inside a longer one ("Hugh" of "Hugh B. Tate")', () => {
    expect(fragmentOfName(a, 'Hugh')).toBe(true);
    expect(fragmentOfName(a, 'Tate')).toBe(false);
    expect(fragmentOfName(a, 'Lane')).toBe(false);
  });

  it('offers no name the sentence already uses ("Marsh wrote to _____" with "Edith Marsh")', () => {
    const s = sentenceWith(a, 'Edith Marsh wrote');
    expect(clozeOptionFault(a, target(s, 'Lane', 'person'), 'Edith Marsh', s)).toBe(
      'named in the sentence',
    );
    expect(clozeOptionFault(a, target(s, 'Lane', 'person'), 'Tate', s)).toBeNull();
  });

  it('offers no topic word of the passage for a noun ("mill")', () => {
    const s = sentenceWith(a, 'The mill burned');
    expect(clozeOptionFault(a, target(s, 'stone', 'noun'), 'mill', s)).toBe('topic word');
  });
});

describe('blanks whose key is taken for the wrong kind of word (issue 22, trivial)', () => {
  // Written for these tests (CC0).
  const SHORE = [
    'At dawn a lone fisherman saw the form of a maiden fair upon the sand.',
    'The boy found a pebble in his shoe and a shell in his pocket.',
    'News of the wreck reached Portugal within a week, and Portugal sent a ship.',
    'Captain Silva led the ship, and Silva found the crew.',
    'Silva said that Silva would sail home in May.',
  ].join(' ');
  const a = analyse(SHORE);

  it('does not ask for a "describing word" that WordNet knows as a noun ("a _____ fair")', () => {
    const s = sentenceWith(a, 'At dawn');
    expect(clozeBlankFault(a, s, target(s, 'maiden', 'adjective'))).toBe('reads as a noun');
  });

  it('does not ask for a "verb" right after an article ("found a _____ in his shoe")', () => {
    const s = sentenceWith(a, 'The boy found');
    expect(clozeBlankFault(a, s, target(s, 'pebble', 'verb'))).toBe('reads as a noun');
  });

  it('does not ask for a place taken for a person (its options would be people)', () => {
    const s = sentenceWith(a, 'News of the wreck');
    expect(clozeBlankFault(a, s, target(s, 'Portugal', 'person'))).toBe('not a person');
  });
});

describe('options that do not fit the blank’s grammar or name a kind of the key (issue 22)', () => {
  // Written for these tests (CC0).
  const WORKSHOP = [
    'The potter packed the cups in straw and carried water from the well.',
    'She sold furniture at the market.',
    'The kiln needs straw and water every week.',
    'In the corner stood a wooden kiln, and beside it a clay oven.',
    'Two ovens and three kilns stood in the yard.',
    'Her tools even give the clay a smooth surface.',
    'A dog and a cat slept by the wall, and the animal woke at dusk.',
    'The dogs barked at the cats, and a terrier chased a hound.',
    'The apprentice kept her surroundings tidy, and her hands were clean.',
    'The children painted the cups, and each child signed a cup.',
    'Two mice ate the grain, and a rat stole the cheese.',
  ].join(' ');
  const a = analyse(WORKSHOP);

  it('knows a slot counted by "a" and a noun the passage uses only as a mass noun', () => {
    const s = sentenceWith(a, 'In the corner');
    expect(countedSlot(s, s.tokens.find((t) => t.value === 'kiln')!.start)).toBe(true);
    expect(countedSlot(s, s.tokens.find((t) => t.value === 'corner')!.start)).toBe(false);
    expect(massInPassage(a, 'straw')).toBe(true);
    expect(massInPassage(a, 'water')).toBe(true);
    expect(massInPassage(a, 'oven')).toBe(false);
  });

  it('knows nouns everyday English seldom puts in the plural ("air", "furniture"; not "oven")', () => {
    expect(seldomPlural('air')).toBe(true);
    expect(seldomPlural('furniture')).toBe(true);
    expect(seldomPlural('oven')).toBe(false);
    expect(seldomPlural('rock')).toBe(false);
    // Too rare in speech to tell.
    expect(seldomPlural('kiln')).toBe(false);
  });

  it('offers no mass noun and no plural after "a" ("a wooden _____": furniture, tools)', () => {
    const s = sentenceWith(a, 'In the corner');
    const kiln = target(s, 'kiln', 'noun');
    expect(clozeOptionFault(a, kiln, 'furniture', s)).toBe('mass noun after a');
    expect(clozeOptionFault(a, kiln, 'tools', s)).toBe('plural after a');
  });

  it('reads the number a verb gives its subject ("the _____ even give" is plural)', () => {
    const s = sentenceWith(a, 'Her tools');
    expect(subjectNumber(s, s.tokens.find((t) => t.value === 'tools')!.start)).toBe('plural');
    const k = sentenceWith(a, 'The kiln needs');
    expect(subjectNumber(k, k.tokens.find((t) => t.value === 'kiln')!.start)).toBe('singular');
    expect(pluralLooking('droppings')).toBe(true);
    expect(pluralLooking('glass')).toBe(false);
    expect(pluralLooking('physics')).toBe(false);
  });

  it('knows plurals without an -s ("children") and leaves words such as "canvas" open', () => {
    expect(nounNumber(a, 'children')).toBe('plural');
    expect(nounNumber(a, 'cups')).toBe('plural');
    expect(nounNumber(a, 'kiln')).toBe('singular');
    expect(nounNumber(a, 'canvas')).toBeNull();
    const s = sentenceWith(a, 'Two mice');
    expect(clozeOptionFault(a, target(s, 'mice', 'noun'), 'rat', s)).toBe('other number');
  });

  it('offers no kind of the key, which may be true of the same thing ("terrier" for "dog")', () => {
    expect(kindOfKey('dog', 'terrier')).toBe(true);
    expect(kindOfKey('animal', 'dog')).toBe(true);
    expect(kindOfKey('dog', 'cat')).toBe(false);
    expect(kindOfKey('dog', 'animal')).toBe(false);
  });
});

describe('options the passage uses only figuratively or inside a compound (issue 22, trivial)', () => {
  // Written for these tests (CC0).
  const GARDEN = [
    'The maple seed spins down like a tiny propeller.',
    'Plants take in carbon dioxide through their leaves.',
    'A beetle crawled across the leaf and hid under a stone.',
    'The gardener found a beetle on her glove.',
  ].join(' ');
  const a = analyse(GARDEN);

  it('knows a noun that only ever stands in a comparison ("like a tiny propeller")', () => {
    const s = sentenceWith(a, 'The maple seed');
    const at = s.tokens.findIndex((t) => t.value === 'propeller');
    expect(comparedTo(s.tokens, at)).toBe(true);
    expect(usageFault(a, 'propeller')).toBe('only in a comparison');
    expect(usageFault(a, 'stone')).toBeNull();
  });

  it('knows the head of a compound that is seldom said alone ("carbon dioxide")', () => {
    expect(usageFault(a, 'dioxide')).toBe('head of a compound');
    expect(usageFault(a, 'leaf')).toBeNull();
  });
});
