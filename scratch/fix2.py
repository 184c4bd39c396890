p='bench/convo.ts'
s=open(p).read()
R=[
("""        { text: `What race did ${a} run?`, evidence: [0], kind: 'direct' },""","""        { text: `What did ${a} run on Sunday?`, evidence: [0], kind: 'direct' },"""),
("""        { text: `What new hobby did ${a} try?`, evidence: [0], kind: 'direct' },""","""        { text: `What did ${a} try for the first time this weekend?`, evidence: [0], kind: 'direct' },"""),
("""        { text: `What language is ${a} learning?`, evidence: [0], kind: 'direct' },""","""        { text: `Which evening class did ${a} enrol in?`, evidence: [0], kind: 'direct' },"""),
("""        { text: `Which band did ${a} see live?`, evidence: [1], kind: 'direct' },""","""        { text: `Which band did ${a} see at the arena?`, evidence: [1], kind: 'direct' },"""),
("""        { text: `Which company did ${a} leave?`, evidence: [0], kind: 'direct' },""","""        { text: `Where did ${a} hand in their notice?`, evidence: [0], kind: 'direct' },"""),
("""        { text: `What decision was ${a} struggling with?`, evidence: [0], kind: 'direct' },""","""        { text: `What could ${a} not decide?`, evidence: [0], kind: 'direct' },"""),
("""        // Each episode contributes one or two of its questions.
        const chosen = [...episode.questions].sort(() => random() - 0.5).slice(0, random() < 0.4 ? 1 : 2);""",
"""        // Each episode contributes one question that repeats words of its answer and, more often than not, one whose
        // words sit in the turns around the answer.
        const direct = episode.questions.filter((question) => question.kind === 'direct');
        const context = episode.questions.filter((question) => question.kind === 'context');
        const chosen = [...(direct.length > 0 ? [pick(direct)] : []), ...(context.length > 0 && random() < 0.6 ? [pick(context)] : [])];"""),
]
for old,new in R:
    assert old in s, old[:80]
    s=s.replace(old,new)
open(p,'w').write(s)
