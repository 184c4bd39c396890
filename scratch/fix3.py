import re
p='bench/convo.ts'
s=open(p).read()
R=[
("past: `adopted a ${pet.kind}`, answer: 0","ask: (who, when) => `What did ${who} adopt from the shelter in ${when}?`, answer: 0"),
("past: 'handed in a notice', answer: 0","ask: (who, when) => `Where did ${who} hand in their notice in ${when}?`, answer: 0"),
("past: 'came back from a holiday', answer: 1","ask: (who, when) => `What was the best part of ${who}'s holiday in ${when}?`, answer: 1"),
("past: 'hosted a dinner party', answer: 0","ask: (who, when) => `What did ${who} cook for the dinner party in ${when}?`, answer: 0"),
("past: `ran a ${sport.race}`, answer: 0","ask: (who, when) => `What did ${who} do on a Sunday in ${when}?`, answer: 0"),
("past: 'got hurt', answer: 1","ask: (who, when) => `What did the doctor tell ${who} in ${when}?`, answer: 3"),
("past: 'spent a night in A&E', answer: 0","ask: (who, when) => `Why did ${who}'s family spend a night in A&E in ${when}?`, answer: 0"),
("past: 'moved house', answer: 0","ask: (who, when) => `What did ${who} say on getting the keys in ${when}?`, answer: 0"),
("past: 'went to a concert', answer: 1","ask: (who, when) => `Which gig did ${who} go to in ${when}?`, answer: 1"),
("past: 'became an aunt', answer: 1","ask: (who, when) => `Who had a little girl in ${when}, according to ${who}?`, answer: 1"),
("""  /** What happened, in the past tense, for a date question ("adopted a dog"), and the turn that says it. */
  dated?: { past: string; answer: number };""","""  /** A question naming when it happened (`when`: "May 2023"), and the turn that answers it. */
  dated?: { ask: (who: string, when: string) => string; answer: number };"""),
("""          list.push({ evidence, when, past: episode.dated.past, teller: tellerName });""","""          list.push({ evidence, when, ask: episode.dated.ask, teller: tellerName });"""),
("""    const dated = new Map<string, { evidence: string; when: Date; past: string; teller: string }[]>();""","""    const dated = new Map<string, { evidence: string; when: Date; ask: (who: string, when: string) => string; teller: string }[]>();"""),
]
for old,new in R:
    assert old in s, old[:80]
    s=s.replace(old,new)
i=s.index("        const question = pick([")
j=s.index("        questions.push({ id: '', agentId, question, evidence: [entry.evidence], kind: 'date' });")
s=s[:i]+"""        // Mostly the thing and the month; now and then only the day and the month.
        const question = random() < 0.8 ? entry.ask(entry.teller, month) : `What did ${entry.teller} tell on that ${weekday} in ${month}?`;
"""+s[j:]
open(p,'w').write(s)
