// A scripted model for the LLM benchmarks: it knows the true fix of every seeded failure
// (bench/fixtures/prompts/truth.json) and proposes it only when the lines it changes are in what
// it was sent (the prompt, earlier turns, files it read), so a heal measures whether the fixer
// put the faulty code in front of the model, and the tokens what that cost. It never reasons:
// figures from it compare fixers and settings, not models.

/** Every text a request carried: messages, text blocks and tool results, in order. */
export function conversationText(body) {
  const parts = [];
  const add = (content) => {
    if (typeof content === 'string') parts.push(content);
    else if (Array.isArray(content))
      for (const block of content) {
        if (typeof block.text === 'string') parts.push(block.text);
        else if (block.type === 'tool_result') add(block.content);
      }
  };
  for (const m of body.messages ?? []) add(m.content);
  return parts.join('\n');
}

/** Files the model asked claude to Read earlier in the conversation. */
function filesRead(body) {
  const files = new Set();
  for (const m of body.messages ?? [])
    if (m.role === 'assistant' && Array.isArray(m.content))
      for (const b of m.content) if (b.type === 'tool_use' && b.name === 'Read') files.add(b.input.file_path);
  return files;
}

function answer(edits, rationale) {
  return { verdict: 'edits', rationale, edits, bug: null, diagnosis: null };
}

/**
 * The model: (call) => { tool, input } | { text }.
 *   truth: entries { test, file, def, fix: { search, replace } }
 *   reads: with claude's Read tool offered, 'needed' reads the faulty file only when its code is
 *     not in the prompt; 'always' reads it before answering, as an agent checks a file it edits
 *   wrongFirst: tests whose first attempt gets a wrong patch (a blank after the function's
 *     signature), so that attempt 2 is a follow-up with the history
 */
export function oracleModel({ truth, reads = 'needed', wrongFirst = new Set() }) {
  return (call) => {
    const text = conversationText(call.body);
    const failing = /failing tests \(\d+\): (.*)/.exec(text)?.[1] ?? '';
    const entry = truth
      .filter((t) => failing.includes(t.test))
      .sort((a, b) => b.test.length - a.test.length)[0];
    const reply = (input) => ({ tool: call.answerTool, input });
    if (!entry)
      return reply({
        verdict: 'unfixable',
        rationale: 'no seeded failure named in the prompt',
        edits: [],
        bug: null,
        diagnosis: `the bench does not know "${failing}"`,
      });
    const visible = entry.fix.search.split('\n').every((line) => text.includes(line.trim()));
    const read = filesRead(call.body);
    if (call.tools.includes('Read') && !read.has(entry.file) && (reads === 'always' || !visible))
      return { tool: 'Read', input: { file_path: entry.file } };
    if (!visible)
      return reply({
        verdict: 'unfixable',
        rationale: 'the faulty code was not sent',
        edits: [],
        bug: null,
        diagnosis: `the lines to change in ${entry.file} are not in the prompt`,
      });
    const attempts = [...text.matchAll(/This is attempt (\d+) of/g)];
    const attempt = Number(attempts.at(-1)?.[1] ?? 1);
    if (attempt === 1 && wrongFirst.has(entry.test))
      return reply(
        answer(
          [{ file: entry.file, search: entry.def, replace: `${entry.def} `, content: null }],
          'a first guess',
        ),
      );
    return reply(
      answer([{ file: entry.file, ...entry.fix, content: null }], `the fault is in ${entry.function}`),
    );
  };
}
