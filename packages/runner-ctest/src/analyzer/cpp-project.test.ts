import { describe, expect, it } from 'vitest';
import { definedNames } from './cpp-project.js';

describe('definedNames', () => {
  it('names the functions a C/C++ text looks like it defines, macro-built and GoogleTest ones included', () => {
    const text = [
      'static cJSON_bool parse_number(cJSON * const item, parse_buffer * const input_buffer)',
      '{',
      '  if (x < 3) { return false; }',
      '}',
      'CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value) { return 0; }',
      'int URI_FUNC(ParseUri)(UriParserStateA * state, const char * text) {',
      '}',
      'int Parser::Load(std::istream& in) const {',
      'TEST(Suite, Name) {',
      'Widget::Widget(int size) : size_(size) {',
      'int declared_only(int x);',
      'while (ready(x)) {',
    ].join('\n');
    const names = definedNames(text);
    for (const n of [
      'parse_number',
      'cJSON_Parse',
      'URI_FUNC',
      'ParseUri',
      'Load',
      'TEST',
      'Suite',
      'Name',
      'Widget',
    ])
      expect(names, n).toContain(n);
    for (const n of ['declared_only', 'while', 'if', 'ready']) expect(names, n).not.toContain(n);
  });
});
