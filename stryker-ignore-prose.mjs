// A StrykerJS ignorer (stryker.config.mjs): leaves unmutated what a check says, not what it judges.
// Its failure messages, request labels and titles are read by a person; no verdict depends on them.

/** Calls whose arguments after the first are a message: expectThat(condition, message, …), ctx.note(requirement, message). */
const SAYS_AFTER_FIRST = /^(expect[A-Z]\w*|note)$/;
/** Calls and constructors whose first argument is a message. */
const SAYS_FIRST = /^(notice|CheckFailure|CheckSkipped|CheckInconclusive)$/;
/** Object keys whose value is wording: a label, a title, the expected and actual of a failure, why a try was unusable. */
const WORDING_KEYS = new Set(['label', 'title', 'message', 'expected', 'actual', 'unusable']);
/** Calls whose text arguments only make a readable id: ctx.ids.orderId('RACE') stays unique without its prefix. */
const ID_PREFIX = /^(orderId|payoutOrderId)$/;
/** A rule cited in a message ('P-OPS-4', 'P-TENANT-1, P-MONEY-4'). */
const RULE_IDS = /^P-[A-Z]+-\d+(, P-[A-Z]+-\d+)*$/;
/** Text with words in it: a label passed to a helper ('create an order'), never a value such as 'FAILED' or ' 1.00'. */
const PROSE = /[A-Za-z] [A-Za-z]/;

function calleeName(call) {
  const callee = call.callee;
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

function isText(node) {
  return node.type === 'StringLiteral' || node.type === 'TemplateLiteral';
}

function staticText(node) {
  return node.type === 'StringLiteral' ? node.value : node.quasis.map((q) => q.value.cooked ?? '').join(' ');
}

/** @type {import('@stryker-mutator/api/ignore').Ignorer} */
const prose = {
  shouldIgnore(path) {
    const parent = path.parentPath?.node;
    if (parent === undefined || !isText(path.node)) return undefined;
    if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && path.listKey === 'arguments') {
      const name = calleeName(parent);
      const index = Number(path.key);
      if (name !== undefined && SAYS_AFTER_FIRST.test(name) && index >= 1) return 'a message';
      if (name !== undefined && SAYS_FIRST.test(name) && index === 0) return 'a message';
      if (name !== undefined && ID_PREFIX.test(name)) return 'an id prefix';
      if (path.node.type === 'StringLiteral' && RULE_IDS.test(path.node.value)) return 'a rule cited';
      if (PROSE.test(staticText(path.node))) return 'a label or message';
    }
    // A probe's label and wording in a row ([label, options, wording]) or named before use (`const shown = …`).
    if ((parent.type === 'ArrayExpression' || parent.type === 'VariableDeclarator') && PROSE.test(staticText(path.node)))
      return 'a label or message';
    if (parent.type === 'ObjectProperty' && path.key === 'value' && parent.key.type === 'Identifier' && WORDING_KEYS.has(parent.key.name))
      return 'wording';
    return undefined;
  },
};

export const strykerPlugins = [{ kind: 'Ignore', name: 'prose', value: prose }];
