// The script of a github-script step, run the way actions/github-script runs it: the body of an async
// function that receives require, github (Octokit with the REST methods and paginate), context and core.
// GitHub's own toolkit comes from tools/act/node_modules, which the rehearsal names in
// REHEARSAL_NODE_MODULES (act copies this folder elsewhere before it runs it).
const path = require('path');
const modules = process.env.REHEARSAL_NODE_MODULES;
const core = require(path.join(modules, '@actions/core'));
const { context, getOctokit } = require(path.join(modules, '@actions/github'));

async function main() {
  const script = core.getInput('script', { required: true });
  const github = getOctokit(core.getInput('github-token', { required: true }));
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const run = new AsyncFunction('require', 'github', 'octokit', 'context', 'core', script);
  const result = await run(require, github, github, context, core);
  const encoding = core.getInput('result-encoding') || 'json';
  core.setOutput('result', encoding === 'string' ? String(result) : JSON.stringify(result));
}

main().catch((error) => core.setFailed(`Unhandled error: ${error}`));
