import OpenAI from 'openai';
import type { ParsedFunctionToolCall } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startMockOpenAI, text, type MockOpenAI } from '../../../../llm-openai/test/mock-openai.js';
import { cleanup, suture } from '../cli-support.js';
import { exampleRepo, snapshot } from './support.js';

let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock?.close();
  await cleanup();
});

describe('suture tools --format openai', () => {
  it("prints strict function definitions the real openai SDK takes in strict mode, and a model's call to suture_heal runs and answers", async () => {
    const dir = await exampleRepo(['python']);
    const printed = await suture(['tools', '--format', 'openai'], dir);
    expect(printed.code, printed.stderr).toBe(0);
    const tools = JSON.parse(printed.stdout) as OpenAI.Chat.ChatCompletionFunctionTool[];
    expect(tools.map((t) => [t.function.name, t.function.strict])).toEqual([
      ['suture_run', true],
      ['suture_heal', true],
      ['suture_apply', true],
      ['suture_report', true],
    ]);

    // What a model sends in strict mode: every key, null for those it leaves out.
    const args = {
      change_description: 'summed the units of the stock items in a loop',
      session_id: null,
      allowed_paths: ['python/**'],
      projects: ['python'],
      tests: ['tests/test_stock.py::test_total_units', 'tests/test_stock.py::test_needs_reorder'],
      max_attempts: null,
      fixers: null,
      strategy: null,
    };
    mock.script(call(args, { name: 'suture_heal' }), text('The heal proposes one verified patch.'));
    const client = new OpenAI({ baseURL: mock.baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'I changed the stock code; get me a verified fix.' },
    ];
    // parse() refuses any tool not marked strict, and parses strict arguments itself.
    const first = await client.chat.completions.parse({ model: 'gpt-5-mini', messages, tools });
    const toolCall = first.choices[0]!.message.tool_calls![0]! as ParsedFunctionToolCall;
    expect(toolCall.function.name).toBe('suture_heal');
    expect(toolCall.function.parsed_arguments).toEqual(args);
    expect(mock.completions()[0]!.body.tools).toEqual(tools);

    const before = await snapshot(dir);
    const ran = await suture(
      [
        'tools',
        '--call',
        toolCall.function.name,
        '--input',
        JSON.stringify(toolCall.function.parsed_arguments),
      ],
      dir,
    );
    expect(ran.code, ran.stderr).toBe(0);
    const answer = JSON.parse(ran.stdout) as { status: string; session_id: string };
    expect(answer.status).toBe('fixed');
    expect(await snapshot(dir)).toEqual(before);

    await client.chat.completions.create({
      model: 'gpt-5-mini',
      tools,
      messages: [
        ...messages,
        first.choices[0]!.message as OpenAI.Chat.ChatCompletionAssistantMessageParam,
        { role: 'tool', tool_call_id: toolCall.id, content: ran.stdout },
      ],
    });
    const sent = mock.completions()[1]!.body as { messages: Array<{ role: string; content: string }> };
    const result = sent.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(result.content)).toMatchObject({ session_id: answer.session_id, status: 'fixed' });
  }, 300_000);
});
