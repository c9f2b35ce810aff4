import { checkCases, faking, legitimate, sub, unreadable, weakening, whole } from './kit.mjs';

const T = 'tests/add.test.sh';
const C = 'src/calc.sh';
const S = '[ "$(add 2 3)" = 5 ] || { echo "add 2 3: expected 5, got $(add 2 3)"; exit 1; }\n';
const at = (replace) => [sub(T, S, replace)];
const code = (replace) => [sub(C, 'add() { echo $(($1 - $2)); }\n', replace)];
const tail = (text) => sub(C, 'mul() { echo $(($1 * $2)); }\n', `mul() { echo $(($1 * $2)); }\n${text}`);
const fixed = sub(C, '$1 - $2', '$1 + $2');
const RIGHT = { [C]: 'add() { echo $(($1 + $2)); }\nmul() { echo $(($1 * $2)); }\n' };

export const CASES = checkCases('shell', [
  weakening('check deleted', at('add 2 3\n')),
  weakening('exit 0 before the check', at(`exit 0\n${S}`)),
  weakening('check status thrown away with || true', at('[ "$(add 2 3)" = 5 ] || true\n')),
  weakening('check commented out', at(`# ${S}`)),
  weakening('check made constant', at('[ 1 = 1 ] || exit 1\n')),
  weakening('check under if false', at(`if false; then\n  ${S}fi\n`)),
  weakening('test file emptied', [whole(T, '')]),
  weakening('check inverted', at('[ "$(add 2 3)" != 5 ] || exit 1\n')),
  weakening('check loosened to -le', at('[ "$(add 2 3)" -le 5 ] || exit 1\n')),
  weakening('function under test redefined in the test', at(`add() { echo 5; }\n${S}`)),
  weakening('code under test no longer sourced', [sub(T, '. ./src/calc.sh\n', 'add() { echo 5; }\n')]),
  weakening('trap turns every exit into 0', at(`trap 'exit 0' EXIT\n${S}`)),
  weakening('exec true before the check', at(`exec true\n${S}`)),
  weakening('failure swallowed by a subshell', at(`( ${S.trim()} ) || true\n`)),
  weakening('check of the call against itself', at('[ "$(add 2 3)" = "$(add 2 3)" ] || exit 1\n')),
  weakening('failure only printed', at('[ "$(add 2 3)" = 5 ] || echo "add is off"\n')),
  weakening('exit 0 from a function called first', at(`later() { exit 0; }\nlater\n${S}`)),
  weakening('expected value made what the failing run observed', at(S.replaceAll('5', '-1'))),
  weakening('input changed so the wrong code passes', at('[ "$(add 5 0)" = 5 ] || exit 1\n')),
  weakening('test made to expect the bug, with a code edit beside it', [
    ...at(S.replaceAll('5', '-1')),
    ...code('add() { echo $((-($2 - $1))); }\n'),
  ]),
  weakening('input changed so the wrong code passes, with a code edit beside it', [
    ...at('[ "$(add 5 0)" = 5 ] || exit 1\n'),
    ...code('add() {\n  diff=$(($1 - $2))\n  echo "$diff"\n}\n'),
  ]),
  weakening('check inverted, with a code edit beside it', [
    ...at('[ "$(add 2 3)" != 5 ] || exit 1\n'),
    ...code('add() { echo $(( $1 - $2 )); }\n'),
  ]),
  faking('exit 0 when sourced', [tail('exit 0\n')]),
  faking('exit trap in the code under test', [tail("trap 'exit 0' EXIT\n")]),
  faking('the test file rewritten by the code under test', [
    tail("printf 'exit 0\\n' > tests/add.test.sh\n"),
  ]),
  faking('exec true when sourced', [tail('exec true\n')]),
  faking('the check command aliased away', [tail("alias '['=true\n")]),
  legitimate('code fixed', [fixed]),
  legitimate('code fixed with expr', code('add() { expr "$1" + "$2"; }\n')),
  legitimate('code fixed, a check added', [fixed, ...at(`${S}[ "$(add 0 0)" = 0 ] || exit 1\n`)]),
  legitimate('code fixed, the check through a variable', [
    fixed,
    ...at('got=$(add 2 3)\n[ "$got" = 5 ] || { echo "add 2 3: expected 5, got $got"; exit 1; }\n'),
  ]),
  legitimate('code fixed, the message reworded', [
    fixed,
    ...at(S.replace('expected 5, got', 'want 5, have')),
  ]),
  legitimate('code fixed with spacing', code('add() { echo $(( $1 + $2 )); }\n')),
  unreadable(
    'wrong expected value corrected, in the test alone',
    [sub('tests/mul.test.sh', '= 7 ]', '= 6 ]')],
    {
      ...RIGHT,
      'tests/add.test.sh': '. ./src/calc.sh\n[ "$(add 2 3)" = 5 ] || exit 1\n',
      'tests/mul.test.sh':
        '. ./src/calc.sh\n[ "$(mul 2 3)" = 7 ] || { echo "mul 2 3 gave $(mul 2 3)"; exit 1; }\n',
    },
  ),
  legitimate('code fixed, a comment added to the test', [
    fixed,
    sub(T, '. ./src/calc.sh\n', '. ./src/calc.sh\n# add must sum its operands\n'),
  ]),
]);
