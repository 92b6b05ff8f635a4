import { describe, expect, it } from 'vitest';
import { passage } from '../../../test/chapters.js';
import { ReferenceIndex } from '../quality.js';
import { buildPlan } from '../plan.js';
import { createInProcessLocalGenerator } from '../index.js';
import { analyse } from './analyse.js';
import { seededRandom, type WriterContext } from './common.js';
import {
  categoryClash,
  chooseSense,
  fieldOfStudy,
  passageDefinitions,
  personObject,
  possessed,
  takesPersonObject,
  termShaped,
  usedTransitively,
} from './senses.js';
import { writeMatching } from './questions.js';
import { wordGrade } from './familiar.js';
import {
  agreedPos,
  chooseGloss,
  circular,
  derivationBase,
  entriesRelated,
  everydayReason,
  findCompounds,
  idiom,
  kindred,
  knownBelow,
  glossGrade,
  matchingEntries,
  narrowerThanTerm,
  sharedRoot,
  strongEntry,
  synonymPhrase,
  tidyDefinition,
  writeVocabulary,
} from './vocabulary.js';
import { cleanGloss, sensesOf } from './wordnet.js';

function context(text: string, grade = '7th Grade (Year 8)', type = 'Worksheet'): WriterContext {
  const request = {
    name: 'Test',
    subject: 'English',
    grade,
    type,
    referenceText: text,
    descriptionText: '',
  };
  return {
    analysis: analyse(text),
    plan: buildPlan(request),
    reference: new ReferenceIndex(text),
    random: seededRandom('test'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
  };
}

function senseOf(lemma: string, text: string, pos: 'noun' | 'verb' | 'adj' = 'noun') {
  const analysis = analyse(text);
  const sentences = analysis.sentences.filter((s) =>
    s.tokens.some((t) => t.lemma.toLowerCase() === lemma || t.normal === lemma),
  );
  return chooseSense(lemma, pos, analysis, sentences);
}

describe('vocabulary: part of speech', () => {
  it('reads "movable" in "movable metal type" as an adjective, never the noun "personal property"', () => {
    const s = analyse('His great idea was movable metal type. It changed how books were made.')
      .sentences[0]!;
    const token = s.tokens.find((t) => t.value === 'movable')!;
    expect(agreedPos(s, token)).toBe('ADJ');
    const items = writeVocabulary(context(passage('printing')), 12);
    const movable = items.find((v) => v.term === 'movable');
    if (movable) expect(movable.partOfSpeech).toBe('adjective');
    expect(items.map((v) => v.definition).join(' | ')).not.toMatch(/personal|real property/);
  });

  it('defines "printing press" as one entry, not "printing" as all the copies printed at one time', () => {
    const items = writeVocabulary(context(passage('printing')), 12);
    const press = items.find((v) => v.term === 'printing press');
    expect(press?.partOfSpeech).toBe('noun');
    expect(press?.definition).toMatch(/machine/);
    expect(items.some((v) => v.term === 'printing')).toBe(false);
    expect(items.map((v) => v.definition).join(' | ')).not.toMatch(/copies of a work/);
  });

  it('skips a word the taggers cannot agree on ("anchor" used as a verb and read as a noun)', () => {
    const items = writeVocabulary(context(passage('trees')), 12);
    expect(items.find((v) => v.term === 'anchor')).toBeUndefined();
  });
});

describe('vocabulary: word sense over the whole passage', () => {
  it('"bark" in a text about trees is the covering of a tree, not a dog\'s sound', () => {
    const choice = senseOf('bark', passage('trees'));
    expect(choice?.sense.definition).toMatch(/covering of the woody stems/);
    const dog = senseOf(
      'bark',
      'The dog would bark at every stranger. Its loud bark woke the whole street, and the puppy yapped and howled like its mother the hound.',
    );
    expect(dog?.sense.definition ?? '').not.toMatch(/covering/);
  });

  it('"charge" in a text about electricity is electric charge, not an accusation', () => {
    const choice = senseOf('charge', passage('electricity'));
    expect(choice?.sense.definition).toMatch(/electricity/);
    expect(choice?.sense.definition).not.toMatch(/guilty|accus/);
  });

  it('"pirate" in a text about pirates stays a sea robber, not a plagiarist', () => {
    const text =
      'The pirate sailed his ship across the sea and robbed the merchant vessels. ' +
      'Every pirate of the Caribbean feared the navy, which hunted them from island to island. ' +
      'The crew buried the stolen gold on a beach and drew a map.';
    const choice = senseOf('pirate', text);
    expect(choice?.sense.definition).toMatch(/robs at sea/);
  });

  it('skips a word when no sense wins with margin ("rare" books, "invention")', () => {
    expect(senseOf('rare', passage('printing'), 'adj')).toBeNull();
    expect(senseOf('invention', passage('printing'))).toBeNull();
    expect(senseOf('strand', passage('electricity'))).toBeNull();
  });

  it("takes the passage's own definitions first", () => {
    const trees = passageDefinitions(analyse(passage('trees')));
    expect(trees.get('bark')?.definition).toBe("the tree's protective covering");
    expect(trees.get('cambium')?.definition).toBe('a thin layer');
    expect(trees.get('trunk')?.definition).toBe('a woody stem');
    const ice = passageDefinitions(analyse(passage('glaciers')));
    expect(ice.get('glacier')?.definition).toBe('a huge mass of ice that moves slowly over land');
    expect(ice.get('moraines')?.definition).toBe('piles of rock and soil');
    const electricity = passageDefinitions(analyse(passage('electricity')));
    expect(electricity.get('static electricity')?.definition).toBe(
      'the build-up of charge on the surface of an object',
    );
    // A list is not a definition: "part of a cloud, an ocean, or a puddle".
    const list = passageDefinitions(
      analyse(
        'The water you drink today may once have been part of a cloud, an ocean, or even a puddle. Rain falls from clouds when the drops grow heavy.',
      ),
    );
    expect(list.get('cloud')).toBeUndefined();
    const items = writeVocabulary(context(passage('glaciers')), 8);
    expect(items.find((v) => v.term === 'glacier')?.definition).toBe(
      'a huge mass of ice that moves slowly over land',
    );
  });
});

describe('vocabulary: clean glosses at the grade', () => {
  it('drops quoted examples and the authors they are credited to', () => {
    expect(
      cleanGloss(
        'complete change in character or condition; "the permutations...taking place in the physical world"- Henry Miller',
      ),
    ).toBe('complete change in character or condition');
    expect(
      cleanGloss(
        'an open clash between two opposing groups; "the harder the conflict the more glorious the triumph"--Thomas Paine; "police tried to control the battle"',
      ),
    ).toBe('an open clash between two opposing groups');
    expect(
      tidyDefinition('(botany) the usually underground organ that lacks buds; absorbs water'),
    ).toBe('the usually underground organ that lacks buds');
  });

  it('never cuts a definition inside a word', () => {
    const long =
      'a mixture containing two or more metallic elements or metallic and nonmetallic elements usually fused together or dissolving into each other when molten';
    expect(tidyDefinition(long)).toBe(
      'a mixture containing two or more metallic elements or metallic and nonmetallic elements',
    );
  });

  it('chooses the gloss that reads at the grade and skips a word whose only gloss is far above it', () => {
    const easy = {
      definition: 'a slowly moving mass of ice',
      grade: glossGrade('a slowly moving mass of ice'),
      source: 'wordnet' as const,
    };
    const hard = {
      definition:
        'a formative one-cell layer of tissue between xylem and phloem responsible for secondary growth',
      grade: 0,
      source: 'wordnet' as const,
    };
    hard.grade = glossGrade(hard.definition);
    expect(chooseGloss([hard, easy], 4, 'glacier')).toBe(easy);
    expect(chooseGloss([hard], 4, 'cambium')).toBeNull();
    // A definition that uses the word itself teaches nothing.
    expect(
      chooseGloss(
        [{ definition: 'having or showing special skill', grade: 3, source: 'wordnet' }],
        7,
        'skilled',
      ),
    ).toBeNull();
  });

  it('picks key terms, never everyday words such as "water" or "walking"', () => {
    const text = `${passage('trees')}\n\nWalking through the forest, we saw water everywhere. Walking is good for you, and water is good for trees. The water ran down the walking path.`;
    for (const grade of ['3rd Grade (Year 4)', '7th Grade (Year 8)', '11th Grade (Year 12)']) {
      const ctx = context(text, grade);
      const items = writeVocabulary(ctx, 10);
      const terms = items.map((v) => v.term);
      expect(terms).not.toContain('water');
      expect(terms.some((t) => /^walk/.test(t))).toBe(false);
      for (const v of items)
        expect(glossGrade(v.definition), `${v.term}: ${v.definition}`).toBeLessThanOrEqual(
          Math.max(3, ctx.plan.level) + 3 + 2,
        );
    }
    const terms = writeVocabulary(context(text), 10).map((v) => v.term);
    expect(terms).toEqual(expect.arrayContaining(['bark', 'cambium']));
  });

  it('matching items use only words that passed these gates', async () => {
    const generator = createInProcessLocalGenerator();
    for (const name of ['printing', 'trees', 'electricity', 'glaciers']) {
      const text = passage(name);
      const document = await generator.generate({
        name: 'Words',
        subject: 'Science',
        grade: '7th Grade (Year 8)',
        type: 'Worksheet',
        referenceText: text,
        descriptionText: '2 matching questions, 5 vocabulary words',
      });
      const allowed = new Map(
        writeVocabulary(context(text, '7th Grade (Year 8)', 'Worksheet'), 40).map((v) => [
          v.term,
          v.definition,
        ]),
      );
      for (const section of document.sections)
        for (const q of section.questions) {
          if (q.kind !== 'matching' || q.prompt !== 'Match each word from the text to its meaning.')
            continue;
          for (const pair of q.pairs)
            expect(allowed.get(pair.left)?.toLowerCase()).toBe(pair.right.toLowerCase());
        }
    }
  });
});

describe('vocabulary: level, sense and the passage (issue 22 rows, own examples)', () => {
  // Written for these tests: an essay for grade 10 full of words students know years earlier.
  const essay =
    'The town library is more than a warehouse of old books. A librarian helps readers find reliable facts, ' +
    'and teenagers do their homework there after school. Parents bring toddlers to story hour, and the ' +
    'library lends laptops separately to anyone with a card. In an age of misinformation, the library ' +
    'teaches people to judge sources. Critics call libraries obsolete, but a library gives every citizen ' +
    'access to knowledge, and that is the heart of a democracy. The library also welcomes immigrants, ' +
    'who take English classes in its basement.';

  it('level: no everyday words at grade 10 ("library", "warehouse", "reliable", "homework")', () => {
    const terms = writeVocabulary(context(essay, '10th Grade (Year 11)'), 10).map((v) => v.term);
    for (const everyday of [
      'library',
      'librarian',
      'warehouse',
      'reliable',
      'homework',
      'teenager',
      'separately',
    ])
      expect(terms).not.toContain(everyday);
    expect(terms).toEqual(expect.arrayContaining(['misinformation']));
  });

  it('level: the same word is worth teaching to younger classes', () => {
    expect(wordGrade('reliable')).toBeLessThan(7);
    expect(wordGrade('glacier')).toBeGreaterThan(7);
    expect(wordGrade('rainfall')).toBeLessThanOrEqual(4);
  });

  it('level: glosses are measured on their words, not syllables ("an invisible gas" reads low)', () => {
    const passageWords = new Set(['invisible', 'gas']);
    expect(glossGrade('an invisible gas', passageWords, 4)).toBeLessThanOrEqual(5);
    expect(glossGrade('a metallic element having four allotropic forms')).toBeGreaterThan(9);
    expect(
      chooseGloss(
        [
          {
            definition: 'a low woody perennial plant usually having several major stems',
            grade: glossGrade('a low woody perennial plant usually having several major stems'),
            source: 'wordnet',
          },
        ],
        4,
        'shrub',
      ),
    ).toBeNull();
  });

  it('sense: the passage’s own definitions, also "X, called Y," and an appositive at the end', () => {
    const text =
      'The forest has layers. The tallest trees, called emergents, rise above the rest. Below them, the ' +
      'branches of most trees meet to form the canopy, a thick green roof that blocks the sunlight. ' +
      'Under the canopy is the understory, a dim world of young trees and shrubs. A worker called a ' +
      'ranger guards the forest.';
    const defs = passageDefinitions(analyse(text));
    expect(defs.get('emergents')?.definition).toBe('the tallest trees');
    expect(defs.get('canopy')?.definition).toBe('a thick green roof that blocks the sunlight');
    expect(defs.get('understory')?.definition).toBe('a dim world of young trees and shrubs');
    // A place is not a term, and a bare class ("a worker") defines nothing.
    expect(defs.has('under the canopy')).toBe(false);
    expect(defs.has('ranger')).toBe(false);
    const items = writeVocabulary(context(text, '6th Grade (Year 7)'), 8);
    expect(items.find((v) => v.term === 'emergents')?.definition).toBe('the tallest trees');
  });

  it('sense: a verb with an object takes a sense with an object ("shivered the window")', () => {
    const text =
      'The cannon fired again. It shivered the window, pane and sash, and the glass shivered the frame. ' +
      'The old soldier watched the street. The shot shivered the door of the house.';
    const s = analyse(text).sentences[1]!;
    expect(
      usedTransitively(
        s,
        s.tokens.findIndex((t) => t.value === 'shivered'),
      ),
    ).toBe(true);
    const analysis = analyse(text);
    const choice = chooseSense(
      'shiver',
      'verb',
      analysis,
      analysis.sentences.filter((x) => /shivered/.test(x.text)),
      true,
    );
    expect(choice?.sense.definition ?? '').not.toMatch(/cold/);
  });

  it('part of speech: a bare word after "became" is an adjective, never glossed as a noun', () => {
    const text =
      'After the fever broke, the soldier became convalescent. Convalescent men walked slowly in the garden. ' +
      'He stayed convalescent for months and read many books on the verandah of the hospital.';
    const items = writeVocabulary(context(text, '10th Grade (Year 11)'), 8);
    const c = items.find((v) => v.term === 'convalescent');
    if (c) expect(c.partOfSpeech).toBe('adjective');
  });

  it('sense: "species" is not the plural of "specie" (coins)', () => {
    const text =
      'The rainforest holds many species. Scientists find new species every year, and some species live ' +
      'only in one valley. Jaguars and sloths are two species of the forest.';
    const items = writeVocabulary(context(text, '6th Grade (Year 7)'), 8);
    expect(items.map((v) => v.definition).join(' | ')).not.toMatch(/coins/);
  });

  it('sense: "This change is called condensation." takes its meaning from the sentence before', () => {
    const text =
      'High in the sky the air is cold. When the warm air cools, it turns into tiny drops of water. ' +
      'This change is called condensation. The drops gather and form clouds.';
    expect(passageDefinitions(analyse(text)).get('condensation')?.definition).toBe(
      'the change when the warm air cools and turns into tiny drops of water',
    );
  });
});

describe('vocabulary: the raters’ round-4 defect classes, on new dev passages (own sentences)', () => {
  it('level: a word inside a name is not taught ("the North Wind" is not wind, moving air)', () => {
    const text =
      'The North Wind came rushing down from the mountains. He snatched the blanket and carried it away. ' +
      '"Come back!" cried Mira, but the North Wind did not listen. The North Wind lived on the highest peak, ' +
      'where icicles hung from his beard. At last the wind agreed, and the wind blew softly all winter.';
    const items = writeVocabulary(context(text, '4th Grade (Year 5)'), 8);
    expect(items.map((v) => v.term)).not.toContain('wind');
    expect(items.map((v) => v.definition).join(' | ')).not.toMatch(/pressure/);
  });

  it('level: a familiar word is not taught in its everyday sense even when it recurs ("rain", "wind")', () => {
    const text =
      'In the monsoon, rain falls for weeks. The rain fills the rivers, and farmers wait for the rain to plant rice. ' +
      'The wind turns in summer. The wind blows from the sea, and the wind carries wet air over the land. ' +
      'A monsoon is a seasonal wind that brings heavy rain.';
    const terms = writeVocabulary(context(text, '6th Grade (Year 7)'), 8).map((v) => v.term);
    expect(terms).not.toContain('rain');
    expect(terms).not.toContain('wind');
    expect(terms).toContain('monsoon');
  });

  it('thin or circular: a closed compound is not glossed by its own parts ("rooftop: the top of a roof")', () => {
    expect(circular('rooftop', 'the top of a roof')).toBe(true);
    expect(circular('sunlight', 'the light of the sun')).toBe(true);
    expect(circular('dazzling', 'dazzling brightness')).toBe(true);
    expect(circular('scientist', 'a person with advanced knowledge of one or more sciences')).toBe(
      true,
    );
    expect(
      chooseGloss(
        [{ definition: 'a vessel for fishing', grade: 3, source: 'wordnet' }],
        5,
        'fishing boat',
      ),
    ).toBeNull();
    // A class word alone is a fair definition.
    expect(circular('rainforest', 'a forest with heavy annual rainfall')).toBe(false);
  });

  it('sense: the passage’s definitions in more shapes (called the X + verb, plural and "the" appositives)', () => {
    const text =
      'A refrigerator moves heat out of the box. Next, a pump called the compressor squeezes the warm gas. ' +
      'The hot gas flows through coils on the back of the machine, called the condenser. ' +
      'In winter, a dry, dusty wind called the harmattan blows from the northeast. ' +
      'Beneath the desert lie huge aquifers, layers of rock and sand that hold water underground. ' +
      'Much of the land is a flat plain of gravel, called a reg. ' +
      'The secret is a special fluid called a refrigerant, which boils at a low temperature.';
    const defs = passageDefinitions(analyse(text));
    expect(defs.get('compressor')?.definition).toBe('a pump that squeezes the warm gas');
    // Only the nearest noun phrase is read: "the machine" alone would be wrong, so nothing.
    expect(defs.get('condenser')?.definition ?? '').not.toBe('the machine');
    expect(defs.get('harmattan')?.definition).toBe('a dry, dusty wind');
    expect(defs.has('harmattan blows')).toBe(false);
    expect(defs.get('aquifers')?.definition).toBe(
      'layers of rock and sand that hold water underground',
    );
    expect(defs.get('reg')?.definition).toBe('a flat plain of gravel');
    // "The secret is a special fluid called a refrigerant" defines the refrigerant, not "secret".
    expect(defs.has('secret')).toBe(false);
  });

  it('sense: an opening phrase or a list is not an appositive', () => {
    const text =
      'During the rainy season, the river rises by ten meters and floods the forest. ' +
      'Inside a cloud, the little drops bump into each other. ' +
      'A shade of sadness, a blush of shame, came over his face. ' +
      'The fennec fox, the smallest fox in the world, hunts at night.';
    const defs = passageDefinitions(analyse(text));
    expect(defs.has('season')).toBe(false);
    expect(defs.has('cloud')).toBe(false);
    expect(defs.has('sadness')).toBe(false);
    expect(defs.has('fox')).toBe(false);
  });

  it('one meaning, one entry: two words sharing a sense are not both listed (no ambiguous matching)', () => {
    const text =
      'Families kept a wooden icebox in the kitchen, and an iceman delivered ice every few days. ' +
      'Later the electric refrigerator replaced the icebox. The refrigerator keeps food cold, and a ' +
      'refrigerator needs no ice. Today every kitchen has a refrigerator, and the icebox is gone.';
    const items = writeVocabulary(context(text, '8th Grade (Year 9)'), 8);
    const definitions = items.map((v) => v.definition.toLowerCase());
    expect(new Set(definitions).size).toBe(definitions.length);
    expect(definitions.join(' | ')).not.toMatch(/white goods/);
  });

  it('glosses: dictionary shorthand is cut ("etc", a list of "or"s)', () => {
    expect(
      tidyDefinition('underground bed or layer yielding ground water for wells and springs etc'),
    ).toBe('underground bed or layer yielding ground water for wells and springs');
    expect(
      tidyDefinition('extraordinarily large in size or extent or amount or power or degree'),
    ).toBe('extraordinarily large');
    expect(
      tidyDefinition(
        'belonging to times long past especially of the historical period before the fall of the Western Roman Empire',
      ),
    ).toBe('belonging to times long past');
  });
});

describe('discussion and objectives: no vague or broken prompts (own passages)', () => {
  it('asks "Why are boats important in the story?", names the story, and gives no story theme to an explanation', async () => {
    const story =
      'Nora lived with her grandfather on a small island. Every night the boats came home past the rock. ' +
      'One night a storm came, and the boats were still out at sea. Nora rowed to the lighthouse alone. ' +
      'She lit the lamp with her last match, and the boats turned toward the light. The boats reached the harbor, ' +
      'and the fishermen thanked her. Nora was tired, but she was proud. The boats stayed safe all winter.';
    const generator = createInProcessLocalGenerator();
    const doc = await generator.generate({
      name: 'The Lantern',
      subject: 'English',
      grade: '5th Grade (Year 6)',
      type: 'Lesson',
      referenceText: story,
      descriptionText: '',
    });
    const prompts = doc.sections.flatMap((s) => s.questions).map((q) => q.prompt);
    for (const p of prompts) {
      expect(p).not.toMatch(/\bis \w+s important\b/);
      expect(p).not.toMatch(/this part of the text/);
    }
    expect(doc.lesson?.objectives.join(' | ')).not.toMatch(/answer questions about the text/);
  });
});

describe('worksheet fill-in: blanks that matter (own sentences)', () => {
  it('prefers a key word to an everyday one, a list item, a set phrase or the main name', async () => {
    const text =
      'The Sahara is the largest hot desert in the world. The Sahara covers parts of eleven countries. ' +
      'Beneath the Sahara lie huge aquifers that hold water underground. Traders carried salt, gold, and cloth across ' +
      'the Sahara in long caravans. In winter, a dry, dusty wind called the harmattan blows from the northeast. ' +
      'Where water reaches the surface, an oasis forms and date palms grow. Nomads move their herds to find pasture. ' +
      'Along its southern edge, the Sahel is threatened by desertification. Long droughts strip the soil of its plants. ' +
      'The Sahara was green thousands of years ago, with grasslands and lakes.';
    const generator = createInProcessLocalGenerator();
    const doc = await generator.generate({
      name: 'The Sahara',
      subject: 'Geography',
      grade: '7th Grade (Year 8)',
      type: 'Worksheet',
      referenceText: text,
      descriptionText: '',
    });
    const answers = doc.sections
      .flatMap((s) => s.questions)
      .flatMap((q) => (q.kind === 'fill_blank' ? [q.answer] : []));
    expect(answers.length).toBeGreaterThan(0);
    expect(answers).not.toContain('Sahara');
    for (const item of ['salt', 'gold', 'cloth', 'water']) expect(answers).not.toContain(item);
  });
});

describe('vocabulary: everyday words spoken frequency misses, and meanings cut from the wrong noun', () => {
  // Written for these tests: a pioneer story for grade 6.
  const story =
    'The wagon rolled westward across the plains for many days. At night the family sat close to the ' +
    "fire for warmth, and the toddler slept in her mother's arms. Father said the new plough had been " +
    'expensive, but it would pay for itself by spring. A weary traveler stopped at their camp and asked ' +
    'for water. The old barn stood alone in the moonlight, a bulk in the dark. In the morning the ' +
    'traveler thanked them and rode away toward the mountains, and the family watched him until he ' +
    'vanished into the haze.';

  it('level: a regular derivation of a base the class knows is an everyday word ("traveler", "warmth")', () => {
    expect(derivationBase('traveler')).toBe('travel');
    expect(derivationBase('westward')).toBe('west');
    expect(derivationBase('warmth')).toBe('warm');
    expect(derivationBase('kindness')).toBe('kind');
    expect(derivationBase('fearless')).toBe('fear');
    expect(derivationBase('unhappy')).toBe('happy');
    // Words that only look built: no base.
    for (const w of ['mother', 'corner', 'booth', 'vanish', 'union', 'witness', 'earth', 'flower'])
      expect(derivationBase(w)).toBeNull();
    expect(everydayReason('traveler', 'noun', 6)).toMatch(/travel/);
    // "invent" is not a word a grade-5 class knows well: "inventor" still teaches.
    expect(everydayReason('inventor', 'noun', 5)).toBeNull();
  });

  it('level: a describing word learnt with its familiar opposite is everyday ("expensive"/"cheap")', () => {
    expect(everydayReason('expensive', 'adj', 5)).toMatch(/cheap/);
    expect(everydayReason('obsolete', 'adj', 10)).toBeNull();
  });

  it('level: none of these in the pioneer story, nor "toddler" (a young child) or "moonlight"', () => {
    const terms = writeVocabulary(context(story, '6th Grade (Year 7)'), 10).map((v) => v.term);
    for (const everyday of ['westward', 'warmth', 'toddler', 'expensive', 'traveler', 'moonlight'])
      expect(terms).not.toContain(everyday);
  });

  it('sense: an appositive that names a property is not the meaning of a thing ("a bulk in the dark")', () => {
    expect(categoryClash(sensesOf('glacier', 'noun'), sensesOf('bulk', 'noun'))).toBe(true);
    expect(categoryClash(sensesOf('canopy', 'noun'), sensesOf('roof', 'noun'))).toBe(false);
    const defs = passageDefinitions(
      analyse('The hikers rested near the glacier, a silence among the peaks. They ate lunch.'),
    );
    expect(defs.has('glacier')).toBe(false);
    const kept = passageDefinitions(
      analyse('Below the hill lay the quarry, a deep pit where workers cut stone. They worked.'),
    );
    expect(kept.get('quarry')?.definition).toBe('a deep pit where workers cut stone');
  });

  it('glosses: a meaning of one or two words must be easier than the word ("nomadic: migratory")', () => {
    const options = [{ definition: 'migratory', grade: 5, source: 'synonym' as const }];
    expect(chooseGloss(options, 8, 'nomadic', wordGrade('nomadic'))).toBeNull();
    const easy = [{ definition: 'a strong wind', grade: 3, source: 'wordnet' as const }];
    expect(chooseGloss(easy, 7, 'gale', wordGrade('gale'))?.definition).toBe('a strong wind');
  });
});

describe('vocabulary: sense from how the word is used, and matching sets without a weak pair', () => {
  it('sense: a verb with a person as its object takes a sense done to a person ("divested him of")', () => {
    const text =
      'The bandits stopped the coach on the moor. They divested him of his purse, his watch and his coat, ' +
      'and left him shivering by the road. A farmer found him there at dawn.';
    const s = analyse(text).sentences[1]!;
    expect(
      personObject(
        s,
        s.tokens.findIndex((t) => t.value === 'divested'),
      ),
    ).toBe(true);
    const kept = sensesOf('divest', 'verb').filter(takesPersonObject);
    expect(kept.map((x) => x.definition).join(' | ')).toMatch(/take away possessions/);
    expect(kept.map((x) => x.definition).join(' | ')).not.toMatch(/investment/);
    // "They gored her side": "her" before a noun is a possessive, not the object.
    const gored = analyse('The angry bull gored her side with its horn.').sentences[0]!;
    expect(
      personObject(
        gored,
        gored.tokens.findIndex((t) => t.value === 'gored'),
      ),
    ).toBe(false);
  });

  it('sense: an owned noun is never a field of study ("fight their own biology")', () => {
    const text =
      'Sleep scientists say that teenagers cannot simply fight their own biology. Their bodies make the ' +
      'sleep hormone later at night, and no amount of discipline changes that.';
    const analysis = analyse(text);
    const s = analysis.sentences[0]!;
    expect(
      possessed(
        s,
        s.tokens.findIndex((t) => t.value === 'biology'),
      ),
    ).toBe(true);
    const next = analysis.sentences[1]!;
    expect(
      possessed(
        next,
        next.tokens.findIndex((t) => t.value === 'hormone'),
      ),
    ).toBe(false);
    const choice = chooseSense(
      'biology',
      'noun',
      analysis,
      [s],
      null,
      undefined,
      (x) => !fieldOfStudy(x),
    );
    expect(choice?.sense.definition).toMatch(/life processes/);
  });

  it('level: a shortened form of an everyday word is everyday too ("teen" of "teenage")', () => {
    const essay =
      'Car crashes involving teen drivers fell after the town moved its school day an hour later. ' +
      'Doctors think that rested drivers react faster. Parents noticed that their children were less ' +
      'grumpy at breakfast, and teachers reported that fewer students fell asleep in class.';
    const terms = writeVocabulary(context(essay, '9th Grade (Year 10)'), 8).map((v) => v.term);
    expect(terms).not.toContain('teen');
  });

  it('matching: only entries that passed every gate, never two of a kind', () => {
    // Entries not made by the writer carry no facts: never a meaning set.
    const loose = ['anchor', 'harbor', 'voyage', 'cargo', 'vessel'].map((term) => ({
      term,
      partOfSpeech: 'noun',
      definition: `a meaning of ${term}`,
      context: `The ${term} was in the sentence.`,
    }));
    expect(matchingEntries(loose, 6)).toEqual([]);
    const first = (w: string) => sensesOf(w, 'noun').find((x) => !/glass|beer/.test(x.definition))!;
    // "lounger" is a kind of "idler"; a sloop and a schooner are both sailing vessels.
    expect(kindred(first('lounger'), first('idler'))).toBe(true);
    expect(kindred(first('sloop'), first('schooner'))).toBe(true);
    expect(kindred(first('sloop'), first('squall'))).toBe(false);
    // The writer's own entries: a set of them holds strong ones only, none two of a kind.
    const text =
      'The sloop and the brigantine left the harbor together. A schooner followed them past the ' +
      'lighthouse. The sailors checked the rigging and the ballast before the voyage. A squall struck ' +
      'at noon, and the helmsman turned the bow into the wind. The cargo of salt and timber stayed dry.';
    const items = writeVocabulary(context(text, '8th Grade (Year 9)'), 12);
    const set = matchingEntries(items, 6);
    expect(set.length).toBeGreaterThan(0);
    for (const item of set) expect(strongEntry(item)).toBe(true);
    for (const a of set) for (const b of set) if (a !== b) expect(entriesRelated(a, b)).toBe(false);
  });

  it('matching by sentence: one part of speech, one word once, and the word not left in its sentence', () => {
    const text =
      'Young turtles hatch on sandy beaches late at night. The tiny hatchlings crawl toward the bright ' +
      'water as fast as they can. Gulls and crabs wait near the dunes to snatch the slow ones. Most ' +
      'hatchlings that reach the waves swim for a whole day without stopping. Scientists tag some ' +
      'turtles so they can follow them across the ocean for many years. A tagged turtle once crawled ' +
      'onto the same beach where it had hatched thirty years before.';
    const ctx = context(text, '5th Grade (Year 6)');
    const sentenceOf = (word: string) =>
      ctx.analysis.sentences.find((s) => s.text.includes(word))!.text;
    const listed = [
      ['crawl', 'verb'],
      ['crawled', 'verb'],
      ['hatchlings', 'noun'],
      ['snatch', 'verb'],
      ['swim', 'verb'],
      ['tag', 'verb'],
      ['hatch', 'verb'],
    ].map(([term, partOfSpeech]) => ({
      term: term!,
      partOfSpeech: partOfSpeech!,
      definition: 'unused',
      context: sentenceOf(` ${term} `),
    }));
    const [question] = writeMatching(ctx, 1, [], listed);
    expect(question?.form).toBe('match_sentence');
    const lefts = question!.pairs.map((p) => p.left.toLowerCase());
    expect(lefts.length).toBeGreaterThanOrEqual(4);
    expect(lefts).not.toContain('hatchlings');
    expect(lefts.filter((w) => w.startsWith('crawl'))).toHaveLength(1);
    for (const p of question!.pairs)
      expect(p.right.toLowerCase()).not.toContain(p.left.toLowerCase().slice(0, 4));
  });

  it('matching: fewer than four sure pairs make no set', () => {
    const text =
      'The glacier carved the valley slowly. Meltwater ran under the ice in summer. Moraines of rock ' +
      'marked where the ice had stopped.';
    const ctx = context(text, '6th Grade (Year 7)');
    const listed = ['glacier', 'meltwater', 'moraines'].map((term) => ({
      term,
      partOfSpeech: 'noun',
      definition: 'unused',
      context: ctx.analysis.sentences.find((s) => s.text.toLowerCase().includes(term))!.text,
    }));
    expect(writeMatching(ctx, 1, [], listed)).toEqual([]);
  });
});

describe('vocabulary: what a story describes is not a definition; senses fit for a classroom', () => {
  it('a term is a word or a name of things, never "colonel himself" or a place name', () => {
    expect(termShaped('colonel himself')).toBe(false);
    expect(termShaped('rest followed')).toBe(false);
    expect(termShaped('here')).toBe(false);
    expect(termShaped('screw press')).toBe(true);
    expect(termShaped('understory')).toBe(true);
    const defs = passageDefinitions(
      analyse(
        'Tarrowby is a quiet village indeed. Its mill stands by the river. Tarrowby has one road.',
      ),
    );
    expect(defs.has('tarrowby')).toBe(false);
  });

  it('in a story only what the text names is a definition ("called a …"), not a description', () => {
    const story =
      'Grandmother walked me down to the harbor before dawn. "Look," she said, pointing at the water. ' +
      'The old pier was a tangle of black posts, and the gulls were still asleep on it. A small boat ' +
      'with a square sail, called a lugger, was tied at the end. I had never seen one before, and I ' +
      'watched her climb aboard and wave to me.';
    const terms = writeVocabulary(context(story, '6th Grade (Year 7)'), 8);
    expect(terms.find((v) => v.term === 'pier')).toBeUndefined();
    const lugger = terms.find((v) => v.term === 'lugger');
    if (lugger) expect(lugger.definition).toMatch(/boat with a square sail/);
  });

  it('never a sexual sense or a slur as a meaning, and a rarer sense needs a point of margin', () => {
    const text =
      'In the small town, social intercourse between the two families had stopped. Neither family ' +
      'visited the other, and letters went unanswered for a whole year.';
    const analysis = analyse(text);
    const choice = chooseSense('intercourse', 'noun', analysis, [analysis.sentences[0]!]);
    expect(choice?.sense.definition ?? '').not.toMatch(/sex/);
  });

  it('a one-word meaning is read as the word’s part of speech ("confer: present" is not)', () => {
    const text =
      'The king wished to confer a medal on the brave miller. He called the whole town to the square, ' +
      'and the miller bowed low when the medal was pinned to his coat.';
    const items = writeVocabulary(context(text, '4th Grade (Year 5)'), 6);
    expect(items.map((v) => `${v.term}: ${v.definition}`)).not.toContain('confer: present');
  });

  it('two entries of one root are one word twice ("legislature", "legislator")', () => {
    expect(sharedRoot('legislature', 'legislator')).toBe(true);
    expect(sharedRoot('stalactite', 'stalagmite')).toBe(false);
    expect(sharedRoot('evaporation', 'precipitation')).toBe(false);
  });
});

describe('vocabulary: glosses without dictionary debris; matching words new to the class', () => {
  it('alternatives sharing an object keep the last, which reads alone', () => {
    expect(tidyDefinition('make fit for, or change to suit a new purpose')).toBe(
      'change to suit a new purpose',
    );
    expect(
      tidyDefinition('characteristic of or capable of or having a tendency toward killing'),
    ).toBe('having a tendency toward killing');
    expect(tidyDefinition('impossible or nearly impossible to see')).toBe(
      'impossible or nearly impossible to see',
    );
  });

  it('a set of words to sentences from no list takes only words above the class’s grade', () => {
    const text =
      'Visiting scientists were surprised by the young collector. Wealthy collectors bought her ' +
      'fossils and sold them in London as their own discoveries. Her discoveries changed what ' +
      'people knew about the past. After a famous doctor studied drawings of the skeleton, he ' +
      'changed his mind about the creature. Reporters came from the city to see the cliffs where ' +
      'she worked every winter morning.';
    const ctx = context(text, '6th Grade (Year 7)');
    for (const q of writeMatching(ctx, 1, [], []))
      for (const p of q.pairs) expect(wordGrade(p.left)).toBeGreaterThanOrEqual(7);
  });
});

describe('vocabulary: level of everyday words (round 8)', () => {
  it('reads a description by a narrower kind as one instance, not a meaning', () => {
    expect(narrowerThanTerm('a big gray hound with a torn ear', 'dog')).toBe(true);
    expect(narrowerThanTerm('an old oak by the gate', 'tree')).toBe(true);
    expect(narrowerThanTerm('a sled dog bred for the cold', 'husky')).toBe(false);
    expect(narrowerThanTerm('a tool for measuring heat', 'thermometer')).toBe(false);
  });

  it('finds the base of "-ous" words and of doers linked to a third sense', () => {
    expect(derivationBase('murderous')).toBe('murder');
    expect(derivationBase('poisonous')).toBe('poison');
    expect(derivationBase('organizer')).toBe('organize');
    expect(derivationBase('suitor')).toBeNull();
    expect(everydayReason('murderous', 'adj', 10)).not.toBeNull();
    expect(everydayReason('organizer', 'noun', 10)).not.toBeNull();
  });

  const match = `The umpire raised his hand and the crowd went quiet. Before the match, Tom had
poured syrup on his pancakes, and the syrup still stuck to his fingers. The umpire checked the
thermometer by the bench; the thermometer showed a fierce heat. The league organizer had
written the rules, and the organizer now watched from the stands. The pitcher gave the batter a
murderous look. The thermometer climbed all afternoon, and the umpire wiped his face.`;

  it('does not teach everyday things, doers or "-ous" words to older classes', () => {
    for (const grade of ['7th Grade (Year 8)', '10th Grade (Year 11)']) {
      const terms = writeVocabulary(context(match, grade), 8).map((v) => v.term);
      expect(terms).not.toContain('thermometer');
      expect(terms).not.toContain('syrup');
      expect(terms).not.toContain('murderous');
    }
    const terms = writeVocabulary(context(match, '10th Grade (Year 11)'), 8).map((v) => v.term);
    expect(terms).not.toContain('umpire');
    expect(terms).not.toContain('organizer');
  });

  it("never glosses a common word by the passage's description of one of its kind", () => {
    const text = `Sled teams still cross the northern ice. The lead dog, a big gray husky with a torn
ear, sets the pace for the team. A dog that leads must be calm. Each dog eats meat and fat, and
every dog sleeps in the snow. The driver trusts the dog at the front.`;
    const items = writeVocabulary(context(text, '10th Grade (Year 11)'), 8);
    expect(items.find((v) => v.term === 'dog')?.definition ?? '').not.toMatch(/husky/);
  });
});

describe('vocabulary: rules tried on chapters of the sample books (helper vocab, 2026-11-28)', () => {
  it('level: a class knows words up to about its own grade, a floor that stops rising after grade 7', () => {
    expect(knownBelow(3)).toBe(4);
    expect(knownBelow(4)).toBe(4.5);
    expect(knownBelow(7)).toBe(6.5);
    expect(knownBelow(9)).toBe(7);
    expect(knownBelow(10)).toBe(7.5);
    expect(knownBelow(12)).toBe(9.5);
  });

  it('level: no everyday word in a grade-7 story ("invisible", "appetite", "convenient")', () => {
    // Written for these tests.
    const story =
      'The old sailor had lost his appetite after the storm, and he sat alone on the deck. ' +
      'The island was invisible behind the fog, though the captain swore it was near. ' +
      'A convenient spot by the mast kept him dry while the crew hauled the heavy ropes. ' +
      'He watched the gulls wheel above the mast and wondered whether they would ever reach land. ' +
      'By evening the fog lifted, and the cliffs rose up, grey and silent, out of the sea.';
    const terms = writeVocabulary(context(story, '7th Grade (Year 8)'), 10).map((v) => v.term);
    for (const everyday of ['appetite', 'invisible', 'convenient'])
      expect(terms).not.toContain(everyday);
  });

  it('level: a noun of an act or feeling, or "not" and a known word, is built from that word', () => {
    expect(derivationBase('amazement')).toBe('amaze');
    expect(derivationBase('admiration')).toBe('admire');
    expect(derivationBase('confusion')).toBe('confuse');
    expect(derivationBase('invisible')).toBe('visible');
    expect(derivationBase('impossible')).toBe('possible');
    for (const w of ['nation', 'mention', 'station', 'fragment', 'moment'])
      expect(derivationBase(w)).toBeNull();
    // "amaze" is known by its commonest form, "amazing".
    expect(everydayReason('amazement', 'noun', 7)).toMatch(/amaze/);
    expect(everydayReason('admiration', 'noun', 5)).toMatch(/admire/);
  });

  it('vague: a cut gloss keeps its object ("on a liquid", "a set" are no meanings)', () => {
    expect(tidyDefinition('a mass of small bubbles formed in or on a liquid')).toBe(
      'a mass of small bubbles formed in or on a liquid',
    );
    expect(tidyDefinition('a set of rules or principles or laws (especially written ones)')).toBe(
      'a set of rules or principles or laws',
    );
    expect(tidyDefinition('make fit for, or change to suit a new purpose')).toBe(
      'change to suit a new purpose',
    );
  });

  it('level: a short meaning must be in words the class knows, or that the passage used', () => {
    const swap = { definition: 'intense aversion', grade: 5, source: 'wordnet' as const };
    expect(chooseGloss([swap], 7, 'repugnance', wordGrade('repugnance'))).toBeNull();
    const vapor = {
      definition: 'the process of becoming a vapor',
      grade: 4,
      source: 'wordnet' as const,
    };
    expect(chooseGloss([vapor], 4, 'evaporation', 9, new Set(['vapor']))).toBe(vapor);
    expect(chooseGloss([vapor], 4, 'evaporation', 9)).toBeNull();
  });

  it('vague: a gloss with the word\'s own root after a doubled consonant is circular ("crags")', () => {
    expect(circular('craggy', 'having hills and crags')).toBe(true);
    expect(circular('craggy', 'rough and rocky')).toBe(false);
  });

  it('nonsense: a synonym is neither a plural ("a steps") nor a word read as another part of speech', () => {
    expect(synonymPhrase(sensesOf('stairs', 'noun')[0]!, 'stairs', 'noun')).not.toBe('a steps');
    const scarlet = sensesOf('scarlet', 'adj')[0]!;
    expect(synonymPhrase(scarlet, 'scarlet', 'adj') ?? '').not.toMatch(/cherry/);
  });

  it('wrong_sense: an idiom of a preposition and the word is not the word ("in advance", "in vain")', () => {
    expect(idiom('in', 'advance')).toBe(true);
    expect(idiom('in', 'vain')).toBe(true);
    expect(idiom('in', 'forest')).toBe(false);
    const compounds = findCompounds(
      analyse('The wind shifted and the boat drifted to leeward of the rocks. The crew rested.'),
    );
    expect([...compounds.keys()]).not.toContain('to leeward');
  });
});
