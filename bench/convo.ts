// The conversational dev set of issue 18 (bench/search-context.ts measures search on it): multi-session dialogues
// between two friends, one turn per memory, each session a thread, and questions about them, each with the ids of its
// evidence turns. Deterministic (seeded). Written from templates: each *episode* is a few turns on one topic (a pet
// adopted, a trip, a new job…) and the questions a reader would ask about it later. Many answers sit in a turn that
// does not repeat the topic — "Biscuit. The kids voted on it." answers "What is the name of Maya's dog?" — as in real
// conversation, where a reply leans on the turn before it; some questions name the month a thing happened, and
// topics recur across sessions, so only the date tells two trips apart. Chit-chat turns fill the sessions.
import { prng, pickWith } from './generate.js';

export interface ConvoMemory {
  id: string;
  agentId: string;
  content: string;
  createdAt: string;
  thread: string;
  /** `chat:<speaker>`. */
  source: string;
  tags: string[];
}

export interface ConvoQuestion {
  id: string;
  agentId: string;
  question: string;
  /** Ids of the turns that answer it. */
  evidence: string[];
  /** How the question was written: `direct` (it repeats words of its evidence), `context` (its topic words sit in the
   *  neighbouring turns), `date` (it names when). */
  kind: 'direct' | 'context' | 'date';
}

export interface ConvoDialogue {
  agentId: string;
  speakers: [string, string];
  memories: ConvoMemory[];
}

export interface DevSet {
  dialogues: ConvoDialogue[];
  questions: ConvoQuestion[];
}

// ---- ids -------------------------------------------------------------------------------------------------------

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A hippo memory id (mem_ + a ULID) from a time and a counter: deterministic, sorted by time. */
function memoryId(ms: number, counter: number): string {
  let time = '';
  let t = ms;
  for (let index = 0; index < 10; index++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let tail = '';
  let c = counter;
  for (let index = 0; index < 16; index++) {
    tail = CROCKFORD[c % 32] + tail;
    c = Math.floor(c / 32);
  }
  return `mem_${time}${tail}`;
}

// ---- slot pools --------------------------------------------------------------------------------------------------

const NAMES = [
  'Maya',
  'Tom',
  'Priya',
  'Jonas',
  'Aoife',
  'Kemi',
  'Luca',
  'Sofia',
  'Hiro',
  'Grace',
  'Omar',
  'Ines',
  'Dara',
  'Felix',
  'Nadia',
  'Ruben',
  'Elena',
  'Sam',
  'Chloe',
  'Marek',
  'Yuki',
  'Ben',
  'Leila',
  'Oscar',
];
const PETS = [
  { kind: 'dog', breeds: ['beagle', 'border collie', 'greyhound', 'labrador', 'dachshund'], names: ['Biscuit', 'Pepper', 'Rolo', 'Juno', 'Mabel'] },
  { kind: 'cat', breeds: ['tabby', 'Maine Coon', 'ginger cat', 'Siamese', 'black cat'], names: ['Miso', 'Tofu', 'Luna', 'Pickle', 'Ziggy'] },
  { kind: 'rabbit', breeds: ['lop-eared rabbit', 'Dutch rabbit', 'lionhead rabbit'], names: ['Clover', 'Nibbles', 'Thumper'] },
];
const CHEWED = ['a slipper', 'the TV remote', 'a phone charger', 'the sofa cushion', 'a library book'];
const CITIES = ['Lisbon', 'Copenhagen', 'Kyoto', 'Edinburgh', 'Valencia', 'Montreal', 'Krakow', 'Seville', 'Vienna', 'Galway', 'Porto', 'Ljubljana'];
const COMPANIES = ['Northwind', 'Bluefin Analytics', 'Harbor Health', 'Quarry Labs', 'Tandem Foods', 'Orbit Media', 'Alder Energy', 'Lumen Bank'];
const FIELDS = ['climate-tech', 'medical imaging', 'fintech', 'edtech', 'robotics', 'food delivery'];
const ROLES = ['product manager', 'data engineer', 'UX researcher', 'backend developer', 'team lead', 'designer'];
const INSTRUMENTS = ['the cello', 'the ukulele', 'the piano', 'the drums', 'the saxophone', 'the violin'];
const PIECES = ['a Bach minuet', 'Hallelujah', 'a Beatles medley', 'the Game of Thrones theme', 'a Chopin nocturne'];
const DISHES = ['a mushroom risotto', 'a lamb tagine', 'a Thai green curry', 'sourdough bread', 'a lemon tart', 'fresh ramen'];
const MISHAPS = ['set off the smoke alarm', 'forgot the salt entirely', 'burned the bottom of the pot', 'dropped the whole tray'];
const SPORTS = [
  { race: 'half marathon', unit: 'hours', times: ['1:52', '2:04', '1:47', '2:11'] },
  { race: '10k', unit: 'minutes', times: ['48 minutes', '55 minutes', '51 minutes', '44 minutes'] },
  { race: 'triathlon', unit: 'hours', times: ['3:05', '2:48', '3:21'] },
];
const BOOKS = [
  { title: 'Piranesi', author: 'Susanna Clarke' },
  { title: 'The Overstory', author: 'Richard Powers' },
  { title: 'Klara and the Sun', author: 'Kazuo Ishiguro' },
  { title: 'Circe', author: 'Madeline Miller' },
  { title: 'Station Eleven', author: 'Emily St. John Mandel' },
  { title: 'Project Hail Mary', author: 'Andy Weir' },
];
const ILLNESS = ['a sprained ankle', 'a bad flu', 'a slipped disc', 'a broken wrist', 'tonsillitis'];
const HOBBIES = ['pottery', 'rock climbing', 'salsa dancing', 'watercolour painting', 'birdwatching', 'woodworking'];
const MADE = ['a lopsided bowl', 'a small mug', 'a vase with a crack in it', 'a set of coasters'];
const GARDEN = ['tomatoes', 'courgettes', 'strawberries', 'chillies', 'runner beans'];
const PESTS = ['slugs', 'aphids', 'a fox', 'the neighbour’s cat', 'pigeons'];
const FOODS_ALLERGY = ['peanuts', 'shellfish', 'sesame', 'kiwi'];
const MOVES = ['a flat near the river', 'a terraced house with a yard', 'a loft above a bakery', 'a cottage outside town'];
const CARS = ['a secondhand Volvo', 'an electric Fiat', 'a green Skoda', 'a cargo bike'];
const CONCERTS = ['Arctic Monkeys', 'Florence and the Machine', 'Bon Iver', 'Khruangbin', 'Fleetwood Mac tribute band'];
const GIFTS = ['a vintage record player', 'a hand-knitted scarf', 'a hot-air balloon ride', 'a framed map of their first city'];
const VOLUNTEER = ['the food bank', 'an animal shelter', 'a literacy programme', 'the hospice shop', 'a river clean-up group'];
const COURSES = ['Spanish', 'Japanese', 'sign language', 'Italian', 'Portuguese'];
const TEACHERS = ['Carmen', 'Mr Sato', 'Deirdre', 'Lorenzo', 'Beatriz'];
const RELATIVES = ['grandmother', 'uncle', 'sister', 'cousin', 'father'];
const CELEBRATIONS = ['ninetieth birthday', 'retirement party', 'wedding anniversary', 'graduation'];
const VENUES = ['a boat on the lake', 'the old town hall', 'a tapas bar', 'their back garden'];

const CHITCHAT_OPEN: readonly [string, string][] = [
  ['Hey! How has your week been?', 'Busy but good, thanks. Yours?'],
  ['Hi! Long time no talk.', 'I know, it has been ages. How are things?'],
  ['Morning! Did you sleep at all?', 'Barely, but coffee is helping.'],
  ['Hey you. Got a minute to catch up?', 'Always. What is new?'],
  ['Hello! Sorry I missed your call yesterday.', 'No worries at all, I was out anyway.'],
];
const FILLERS: readonly string[] = [
  'Haha, totally.',
  'Oh no, really?',
  'That sounds lovely.',
  'I know what you mean.',
  'Honestly, same here.',
  'Wow. Good for you.',
  'Ha, classic.',
  'Fair enough.',
  'That makes sense.',
  'Oh nice!',
  'I hear you.',
  'Oof, that is rough.',
];
const CLOSES: readonly [string, string][] = [
  ['Anyway, I should get going. Talk soon!', 'Bye! Take care.'],
  ['Right, dinner is ready. Speak later?', 'Definitely. Enjoy!'],
  ['I have to run to a meeting. Catch you later.', 'Good luck! Bye.'],
];

// ---- episodes ----------------------------------------------------------------------------------------------------

interface Turn {
  /** 0: the one telling (A), 1: the friend (B). */
  by: 0 | 1;
  text: string;
}

interface EpisodeQuestion {
  text: string;
  /** Indexes into the episode's turns. */
  evidence: number[];
  kind: ConvoQuestion['kind'];
}

interface Episode {
  /** Episodes sharing a topic recur within a dialogue only with a date question to tell them apart. */
  topic: string;
  turns: Turn[];
  questions: EpisodeQuestion[];
  /** A question naming when it happened (`when`: "May 2023"), and the turn that answers it. */
  dated?: { ask: (who: string, when: string) => string; answer: number };
}

type Pick = <T>(list: readonly T[]) => T;
type EpisodeMaker = (a: string, b: string, pick: Pick) => Episode;

const EPISODES: Record<string, EpisodeMaker> = {
  pet: (a, b, pick) => {
    const pet = pick(PETS);
    const breed = pick(pet.breeds);
    const name = pick(pet.names);
    const chewed = pick(CHEWED);
    return {
      topic: 'pet',
      turns: [
        { by: 0, text: `Big news: we adopted a ${breed} from the shelter on Saturday!` },
        { by: 1, text: 'Oh wow, congratulations! What did you call it?' },
        { by: 0, text: `${name}. The kids voted on it.` },
        { by: 1, text: `${name} is perfect. Is it settling in?` },
        { by: 0, text: `Mostly, but it destroyed ${chewed} on the first night.` },
      ],
      questions: [
        { text: `What did ${a} call the ${breed}?`, evidence: [2], kind: 'context' },
        { text: `Who voted on the name of ${a}'s ${pet.kind}?`, evidence: [2], kind: 'direct' },
        { text: `What did ${name} destroy on the first night?`, evidence: [4], kind: 'direct' },
        { text: `What kind of ${pet.kind} did ${a} adopt?`, evidence: [0], kind: 'direct' },
      ],
      dated: { ask: (who, when) => `What did ${who} adopt from the shelter in ${when}?`, answer: 0 },
    };
  },
  job: (a, b, pick) => {
    const company = pick(COMPANIES);
    const city = pick(CITIES);
    const field = pick(FIELDS);
    const role = pick(ROLES);
    return {
      topic: 'job',
      turns: [
        { by: 0, text: `I handed in my notice at ${company} today. I got the new job!` },
        { by: 1, text: 'No way, congratulations! Where is it?' },
        { by: 0, text: `A small ${field} startup in ${city}. I start after the summer.` },
        { by: 1, text: 'And what will you be doing there?' },
        { by: 0, text: `I will be their first ${role}, which is terrifying and exciting.` },
      ],
      questions: [
        { text: `Where is ${a}'s new job?`, evidence: [2], kind: 'context' },
        { text: `What will ${a} be doing at the ${field} startup?`, evidence: [4], kind: 'context' },
        { text: `Where did ${a} hand in their notice?`, evidence: [0], kind: 'direct' },
      ],
      dated: { ask: (who, when) => `Where did ${who} hand in their notice in ${when}?`, answer: 0 },
    };
  },
  trip: (a, b, pick) => {
    const city = pick(CITIES);
    const highlight = pick(['a tiny jazz bar', 'the fish market at dawn', 'a boat tour of the harbour', 'a cooking class', 'the botanical gardens']);
    const problem = pick([
      'our luggage went to another airport',
      'it rained for four days straight',
      'my partner got food poisoning',
      'the hotel lost our booking',
    ]);
    return {
      topic: 'trip',
      turns: [
        { by: 1, text: 'So how was the holiday? I want to hear everything.' },
        { by: 0, text: `${city} was wonderful. The best part was ${highlight}.` },
        { by: 1, text: 'Any disasters?' },
        { by: 0, text: `Well, ${problem}, but we laughed about it in the end.` },
      ],
      questions: [
        { text: `Where did ${a} go on holiday?`, evidence: [1], kind: 'context' },
        { text: `What went wrong on ${a}'s holiday?`, evidence: [3], kind: 'context' },
        { text: `What was the best part of ${a}'s trip to ${city}?`, evidence: [1], kind: 'direct' },
      ],
      dated: { ask: (who, when) => `What was the best part of ${who}'s holiday in ${when}?`, answer: 1 },
    };
  },
  music: (a, b, pick) => {
    const instrument = pick(INSTRUMENTS);
    const piece = pick(PIECES);
    const teacher = pick(TEACHERS);
    return {
      topic: 'music',
      turns: [
        { by: 0, text: `I finally signed up for lessons. I am learning ${instrument.replace('the ', '')}!` },
        { by: 1, text: 'That is brilliant. Who is teaching you?' },
        { by: 0, text: `A retired orchestra player called ${teacher}. She is strict but kind.` },
        { by: 1, text: 'What are you practising at the moment?' },
        { by: 0, text: `${piece}, very slowly. My neighbours must love me.` },
      ],
      questions: [
        { text: `What instrument is ${a} learning?`, evidence: [0], kind: 'direct' },
        { text: `Who is teaching ${a} ${instrument.replace('the ', '')}?`, evidence: [2], kind: 'context' },
        { text: `What is ${a} practising at the moment?`, evidence: [4], kind: 'context' },
      ],
    };
  },
  cooking: (a, b, pick) => {
    const dish = pick(DISHES);
    const mishap = pick(MISHAPS);
    const guest = pick(NAMES);
    return {
      topic: 'cooking',
      turns: [
        { by: 0, text: `I hosted a dinner party last night and tried ${dish} for the first time.` },
        { by: 1, text: 'Brave! How did it turn out?' },
        { by: 0, text: `Delicious, although I ${mishap} halfway through.` },
        { by: 1, text: 'Ha! Did anyone notice?' },
        { by: 0, text: `Only ${guest}, who laughed so hard she cried.` },
      ],
      questions: [
        { text: `What did ${a} cook for the dinner party?`, evidence: [0], kind: 'direct' },
        { text: `How did ${dish.replace(/^(a|an) /, 'the ')} turn out at ${a}'s dinner party?`, evidence: [2], kind: 'context' },
        { text: `Who noticed what went wrong at ${a}'s dinner party?`, evidence: [4], kind: 'context' },
      ],
      dated: { ask: (who, when) => `What did ${who} cook for the dinner party in ${when}?`, answer: 0 },
    };
  },
  race: (a, b, pick) => {
    const sport = pick(SPORTS);
    const time = pick(sport.times);
    const cause = pick(['raise money for the children’s hospital', 'prove to myself I could', 'keep my brother company', 'celebrate turning forty']);
    return {
      topic: 'race',
      turns: [
        { by: 0, text: `I did it! I ran the ${sport.race} on Sunday.` },
        { by: 1, text: 'Amazing! What was your time?' },
        { by: 0, text: `${time}. My legs still hate me.` },
        { by: 1, text: 'What made you sign up in the first place?' },
        { by: 0, text: `I wanted to ${cause}.` },
      ],
      questions: [
        { text: `What was ${a}'s finishing time in the ${sport.race}?`, evidence: [2], kind: 'context' },
        { text: `What made ${a} sign up for the ${sport.race}?`, evidence: [4], kind: 'context' },
        { text: `What did ${a} run on Sunday?`, evidence: [0], kind: 'direct' },
      ],
      dated: { ask: (who, when) => `What did ${who} do on a Sunday in ${when}?`, answer: 0 },
    };
  },
  book: (a, b, pick) => {
    const book = pick(BOOKS);
    const verdict = pick(['could not put it down', 'found the ending a bit flat', 'cried on the train reading it', 'thought the middle dragged']);
    return {
      topic: 'book',
      turns: [
        { by: 1, text: 'Read anything good lately?' },
        { by: 0, text: `${book.title} by ${book.author}. My book club picked it.` },
        { by: 1, text: 'Oh, I have heard of that one. Did you like it?' },
        { by: 0, text: `Honestly, I ${verdict}.` },
      ],
      questions: [
        { text: `What book did ${a}'s book club choose?`, evidence: [1], kind: 'direct' },
        { text: `Did ${a} like ${book.title}?`, evidence: [3], kind: 'context' },
        { text: `What has ${a} been reading lately?`, evidence: [1], kind: 'context' },
      ],
    };
  },
  injury: (a, b, pick) => {
    const illness = pick(ILLNESS);
    const cause = pick(['slipping on ice outside the office', 'a five-a-side football match', 'lifting a wardrobe', 'a spin class']);
    const weeks = pick(['two weeks', 'six weeks', 'ten days', 'a month']);
    return {
      topic: 'injury',
      turns: [
        { by: 1, text: 'You sounded rough on the phone. Are you okay?' },
        { by: 0, text: `I have ${illness}, from ${cause}, of all things.` },
        { by: 1, text: 'Ouch. How long until you are back to normal?' },
        { by: 0, text: `The doctor said ${weeks} of rest.` },
      ],
      questions: [
        { text: `How did ${a} get ${illness}?`, evidence: [1], kind: 'direct' },
        { text: `How long did the doctor tell ${a} to rest?`, evidence: [3], kind: 'direct' },
        { text: `How long until ${a} is back to normal?`, evidence: [3], kind: 'context' },
      ],
      dated: { ask: (who, when) => `What did the doctor tell ${who} in ${when}?`, answer: 3 },
    };
  },
  hobby: (a, b, pick) => {
    const hobby = pick(HOBBIES);
    const made = pick(MADE);
    return {
      topic: 'hobby',
      turns: [
        { by: 0, text: `I tried ${hobby} for the first time this weekend.` },
        { by: 1, text: 'Fun! Were you any good?' },
        { by: 0, text: `Not really. All I have to show for it is ${made}.` },
        { by: 1, text: 'Will you go back?' },
        { by: 0, text: 'Yes, I booked the next six Thursdays.' },
      ],
      questions: [
        { text: `What did ${a} try for the first time this weekend?`, evidence: [0], kind: 'direct' },
        { text: `What did ${a} make trying ${hobby}?`, evidence: [2], kind: 'context' },
        { text: `Will ${a} go back to ${hobby}?`, evidence: [4], kind: 'context' },
      ],
    };
  },
  garden: (a, b, pick) => {
    const crop = pick(GARDEN);
    const pest = pick(PESTS);
    return {
      topic: 'garden',
      turns: [
        { by: 1, text: 'How is the allotment doing?' },
        { by: 0, text: `The ${crop} are finally coming through!` },
        { by: 1, text: 'Anything eating them?' },
        { by: 0, text: `${pest[0]!.toUpperCase()}${pest.slice(1)}, every single night. I am losing the war.` },
      ],
      questions: [
        { text: `What is coming through on ${a}'s allotment?`, evidence: [1], kind: 'context' },
        { text: `What keeps eating the ${crop} on ${a}'s allotment?`, evidence: [3], kind: 'context' },
      ],
    };
  },
  allergy: (a, b, pick) => {
    const food = pick(FOODS_ALLERGY);
    const who = pick(['my son', 'my daughter', 'my partner', 'my little brother']);
    return {
      topic: 'allergy',
      turns: [
        { by: 0, text: `We spent last night in A&E. ${who[0]!.toUpperCase()}${who.slice(1)} had a reaction at a birthday party.` },
        { by: 1, text: 'Oh my god. Is everyone okay? What caused it?' },
        { by: 0, text: `Turns out they are allergic to ${food}. We carry an EpiPen now.` },
      ],
      questions: [
        { text: `What caused the reaction at the birthday party ${a} told about?`, evidence: [2], kind: 'context' },
        { text: `Who in ${a}'s family had a reaction at a birthday party?`, evidence: [0], kind: 'direct' },
        { text: `What is ${a}'s ${who.replace('my ', '')} allergic to?`, evidence: [2], kind: 'direct' },
      ],
      dated: { ask: (who, when) => `Why did ${who}'s family spend a night in A&E in ${when}?`, answer: 0 },
    };
  },
  move: (a, b, pick) => {
    const place = pick(MOVES);
    const city = pick(CITIES);
    return {
      topic: 'move',
      turns: [
        { by: 0, text: 'We got the keys today! Boxes everywhere.' },
        { by: 1, text: 'The new place! Tell me about it.' },
        { by: 0, text: `It is ${place}, twenty minutes from the centre of ${city}.` },
        { by: 1, text: 'And the old landlord?' },
        { by: 0, text: 'We got the whole deposit back, miraculously.' },
      ],
      questions: [
        { text: `What is ${a}'s new place like?`, evidence: [2], kind: 'context' },
        { text: `Did ${a} get the deposit back from the old landlord?`, evidence: [4], kind: 'direct' },
        { text: `When did ${a} get the keys to the new home?`, evidence: [0], kind: 'direct' },
      ],
      dated: { ask: (who, when) => `What did ${who} say on getting the keys in ${when}?`, answer: 0 },
    };
  },
  car: (a, b, pick) => {
    const car = pick(CARS);
    const colourName = pick(['the Turtle', 'Big Bertha', 'the Pickle', 'Rosie']);
    return {
      topic: 'car',
      turns: [
        { by: 0, text: 'I finally replaced the old car. The garage said it was not worth fixing.' },
        { by: 1, text: 'Sad! What did you get?' },
        { by: 0, text: `${car[0]!.toUpperCase()}${car.slice(1)}. The kids already call it ${colourName}.` },
      ],
      questions: [
        { text: `What did ${a} get to replace the old car?`, evidence: [2], kind: 'context' },
        { text: `What do the kids call ${a}'s new car?`, evidence: [2], kind: 'direct' },
      ],
    };
  },
  concert: (a, b, pick) => {
    const band = pick(CONCERTS);
    const moment = pick([
      'they played our wedding song',
      'it poured with rain the whole set',
      'the singer jumped into the crowd',
      'we ended up right at the front',
    ]);
    return {
      topic: 'concert',
      turns: [
        { by: 1, text: 'Did you end up going on Friday?' },
        { by: 0, text: `We did! ${band} at the arena. Best gig in years.` },
        { by: 1, text: 'Jealous. Highlight?' },
        { by: 0, text: `When ${moment}.` },
      ],
      questions: [
        { text: `Which band did ${a} see at the arena?`, evidence: [1], kind: 'direct' },
        { text: `What was the highlight of the ${band} gig for ${a}?`, evidence: [3], kind: 'context' },
        { text: `What was the best moment of ${a}'s Friday gig?`, evidence: [3], kind: 'context' },
      ],
      dated: { ask: (who, when) => `Which gig did ${who} go to in ${when}?`, answer: 1 },
    };
  },
  gift: (a, b, pick) => {
    const gift = pick(GIFTS);
    const partner = pick(['Daniel', 'Anna', 'Kofi', 'Mei', 'Pedro', 'Hannah']);
    return {
      topic: 'gift',
      turns: [
        { by: 0, text: `It is our tenth anniversary next week and I have no idea what to get ${partner}.` },
        { by: 1, text: 'What about something you did together early on?' },
        { by: 0, text: `Ooh. Maybe ${gift}. That could work.` },
        { by: 1, text: 'I love that idea.' },
      ],
      questions: [
        { text: `What might ${a} get ${partner} for the anniversary?`, evidence: [2], kind: 'context' },
        { text: `Which anniversary is ${a} celebrating next week?`, evidence: [0], kind: 'direct' },
      ],
    };
  },
  volunteer: (a, b, pick) => {
    const place = pick(VOLUNTEER);
    const task = pick(['sorting donations', 'walking the dogs', 'reading with kids', 'running the till', 'hauling shopping trolleys out of the river']);
    return {
      topic: 'volunteer',
      turns: [
        { by: 0, text: `I started volunteering at ${place} on Saturday mornings.` },
        { by: 1, text: 'That is lovely. What do they have you doing?' },
        { by: 0, text: `Mostly ${task}. It is the best part of my week.` },
      ],
      questions: [
        { text: `Where does ${a} volunteer?`, evidence: [0], kind: 'direct' },
        { text: `What do they have ${a} doing at ${place.replace(/^(a|an) /, 'the ')}?`, evidence: [2], kind: 'context' },
      ],
    };
  },
  course: (a, b, pick) => {
    const language = pick(COURSES);
    const reason = pick([
      'my partner’s family barely speak English',
      'we are moving abroad next year',
      'I want to read novels in the original',
      'a bet with my sister',
    ]);
    const level = pick(['A2', 'B1', 'beginner', 'intermediate']);
    return {
      topic: 'course',
      turns: [
        { by: 0, text: `I enrolled in an evening ${language} class.` },
        { by: 1, text: 'Why the sudden interest?' },
        { by: 0, text: `Because ${reason}.` },
        { by: 1, text: 'How are you finding it?' },
        { by: 0, text: `Hard! I just passed the ${level} test though.` },
      ],
      questions: [
        { text: `Which evening class did ${a} enrol in?`, evidence: [0], kind: 'direct' },
        { text: `Why did ${a} enrol in the ${language} class?`, evidence: [2], kind: 'context' },
        { text: `Which language test did ${a} pass?`, evidence: [4], kind: 'direct' },
      ],
    };
  },
  family: (a, b, pick) => {
    const relative = pick(RELATIVES);
    const celebration = pick(CELEBRATIONS);
    const venue = pick(VENUES);
    const surprise = pick(['a slideshow of old photos', 'a cake shaped like a tractor', 'a choir singing outside', 'a letter from an old friend abroad']);
    return {
      topic: 'family',
      turns: [
        { by: 0, text: `We are planning my ${relative}'s ${celebration}. Stressful!` },
        { by: 1, text: 'Where are you having it?' },
        { by: 0, text: `On ${venue}, if the weather holds.` },
        { by: 1, text: 'Any surprises planned?' },
        { by: 0, text: `Yes, ${surprise}, but do not tell anyone.` },
      ],
      questions: [
        { text: `Where is ${a}'s family having the ${celebration}?`, evidence: [2], kind: 'context' },
        { text: `What surprise is ${a} planning for the ${celebration}?`, evidence: [4], kind: 'direct' },
        { text: `Whose ${celebration} is ${a} planning?`, evidence: [0], kind: 'direct' },
      ],
    };
  },
  advice: (a, b, pick) => {
    const dilemma = pick(['whether to take the promotion', 'whether to move back home', 'whether to sell the flat', 'whether to go part-time']);
    const advice = pick([
      'sleep on it for a week',
      'write down the worst case and see if you can live with it',
      'ask the people who already made that move',
      'trust your gut, you always know',
    ]);
    return {
      topic: 'advice',
      turns: [
        { by: 0, text: `Can I ask your opinion? I cannot decide ${dilemma}.` },
        { by: 1, text: `My advice? ${advice[0]!.toUpperCase()}${advice.slice(1)}.` },
        { by: 0, text: 'That is actually really helpful. Thank you.' },
      ],
      questions: [
        { text: `What advice did ${b} give ${a}?`, evidence: [1], kind: 'direct' },
        { text: `What did ${b} think ${a} should do about the dilemma?`, evidence: [1], kind: 'context' },
        { text: `What could ${a} not decide?`, evidence: [0], kind: 'direct' },
      ],
    };
  },
  baby: (a, b, pick) => {
    const name = pick(['Rosa', 'Theo', 'Iris', 'Arlo', 'Nia', 'Felix']);
    const weight = pick(['3.2 kilos', '3.8 kilos', '2.9 kilos', '4.1 kilos']);
    return {
      topic: 'baby',
      turns: [
        { by: 1, text: 'Any news from your sister? She was due this week, right?' },
        { by: 0, text: `Yes! She had a little girl on Tuesday night. She weighed ${weight}.` },
        { by: 1, text: 'Congratulations, auntie! Name?' },
        { by: 0, text: `${name}, after our grandmother.` },
      ],
      questions: [
        { text: `What is the name of ${a}'s sister's baby?`, evidence: [3], kind: 'context' },
        { text: `How much did the baby of ${a}'s sister weigh?`, evidence: [1], kind: 'direct' },
        { text: `Who was the baby named after?`, evidence: [3], kind: 'direct' },
      ],
      dated: { ask: (who, when) => `Who had a little girl in ${when}, according to ${who}?`, answer: 1 },
    };
  },
};

const EPISODE_NAMES = Object.keys(EPISODES);
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Builds the dev set: `dialogues` dialogues (two friends each, one agent each), every session a thread. */
export function buildDevSet(options: { dialogues?: number; seed?: number } = {}): DevSet {
  const random = prng(options.seed ?? 18);
  const pick: Pick = pickWith(random);
  const dialogues: ConvoDialogue[] = [];
  const questions: ConvoQuestion[] = [];
  let counter = 0;
  const count = options.dialogues ?? 12;
  for (let d = 0; d < count; d++) {
    const agentId = `convo-${String(d + 1).padStart(2, '0')}`;
    const a = NAMES[(2 * d) % NAMES.length]!;
    const b = NAMES[(2 * d + 1) % NAMES.length]!;
    const speakers: [string, string] = [a, b];
    const memories: ConvoMemory[] = [];
    // Sessions a few days to a few weeks apart through 2023; each covers 3–4 episodes with chit-chat around them.
    let day = Date.UTC(2023, 0, 3) + Math.floor(random() * 60) * 86_400_000;
    const sessions = 5 + Math.floor(random() * 3);
    // The episode plan: mostly distinct topics, some repeated (two trips, two dinners…) in different sessions.
    const plan: string[] = [];
    const shuffled = [...EPISODE_NAMES].sort(() => random() - 0.5);
    for (let s = 0; s < sessions * 4; s++)
      plan.push(s < shuffled.length * 0.8 ? shuffled[s % shuffled.length]! : pick(['trip', 'cooking', 'concert', 'race', 'pet']));
    let planned = 0;
    const dated = new Map<string, { evidence: string; when: Date; ask: (who: string, when: string) => string; teller: string }[]>();
    for (let s = 0; s < sessions; s++) {
      day += (4 + Math.floor(random() * 24)) * 86_400_000;
      let time = day + (8 + Math.floor(random() * 12)) * 3_600_000;
      const thread = `${agentId}/session-${s + 1}`;
      const add = (by: 0 | 1, text: string, tags: string[] = []): string => {
        time += (30 + Math.floor(random() * 150)) * 1000;
        const id = memoryId(time, ++counter);
        // The words are the memory; who said them is where it came from (not indexed, as in most chat logs).
        memories.push({ id, agentId, content: text, createdAt: new Date(time).toISOString(), thread, source: `chat:${speakers[by]}`, tags });
        return id;
      };
      const open = pick(CHITCHAT_OPEN);
      const opener = random() < 0.5 ? 0 : 1;
      add(opener, open[0]);
      add(opener === 0 ? 1 : 0, open[1]);
      const episodes = 3 + (random() < 0.5 ? 1 : 0);
      for (let e = 0; e < episodes; e++) {
        const name = plan[planned++ % plan.length]!;
        // Who tells the story alternates, so both friends have news.
        const teller = random() < 0.5 ? 0 : 1;
        const [tellerName, friendName] = teller === 0 ? [a, b] : [b, a];
        const episode = EPISODES[name]!(tellerName, friendName, pick);
        const ids = episode.turns.map((turn) => {
          const by = (turn.by === 0 ? teller : 1 - teller) as 0 | 1;
          const id = add(by, turn.text);
          // A filler now and then, as people interject.
          if (random() < 0.15) add((1 - by) as 0 | 1, pick(FILLERS));
          return id;
        });
        // Each episode contributes one question that repeats words of its answer and, more often than not, one whose
        // words sit in the turns around the answer.
        const direct = episode.questions.filter((question) => question.kind === 'direct');
        const context = episode.questions.filter((question) => question.kind === 'context');
        const chosen = [...(direct.length > 0 ? [pick(direct)] : []), ...(context.length > 0 && random() < 0.6 ? [pick(context)] : [])];
        for (const question of chosen) {
          questions.push({ id: '', agentId, question: question.text, evidence: question.evidence.map((index) => ids[index]!), kind: question.kind });
        }
        if (episode.dated) {
          const evidence = ids[episode.dated.answer]!;
          const when = new Date(memories.find((memory) => memory.id === evidence)!.createdAt);
          const list = dated.get(episode.topic) ?? [];
          list.push({ evidence, when, ask: episode.dated.ask, teller: tellerName });
          dated.set(episode.topic, list);
        }
        if (random() < 0.5) add(random() < 0.5 ? 0 : 1, pick(FILLERS));
      }
      const close = pick(CLOSES);
      add(opener, close[0]);
      add(opener === 0 ? 1 : 0, close[1]);
    }
    // Date questions ("…in May 2023"): for every thing that happened more than once in the dialogue (only the date
    // tells them apart) and for half of the others.
    for (const entries of dated.values()) {
      for (const entry of entries) {
        if (entries.length < 2 && random() < 0.5) continue;
        const month = `${MONTHS[entry.when.getUTCMonth()]} ${entry.when.getUTCFullYear()}`;
        const weekday = WEEKDAYS[entry.when.getUTCDay()]!;
        // Mostly the thing and the month; now and then only the day and the month.
        const question = random() < 0.8 ? entry.ask(entry.teller, month) : `What did ${entry.teller} tell on that ${weekday} in ${month}?`;
        questions.push({ id: '', agentId, question, evidence: [entry.evidence], kind: 'date' });
      }
    }
    dialogues.push({ agentId, speakers, memories });
  }
  questions.forEach((question, index) => (question.id = `q${String(index + 1).padStart(3, '0')}`));
  return { dialogues, questions };
}
