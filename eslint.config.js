import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * `npm run lint`, run by .ci/run with zero warnings allowed: typescript-eslint's recommended
 * rules (type-aware where they need types) and React's hooks rules over the sources, tests,
 * bench and scripts. A rule that does not fit this code is turned off here with the reason, never
 * by a comment in a file.
 */
export default tseslint.config(
	{ignores: ['dist/', 'node_modules/', '.bench-dist*/', '.tmp-dist/', '.tmp-prof/', 'tmp/', 'source/simulator/corpus/']},
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx}'],
		plugins: {'react-hooks': reactHooks},
		rules: {
			// The two rules of hooks. The plugin's React Compiler rules (refs read during render,
			// setState in effects, purity) assume the compiler, which this project does not use:
			// its rows deliberately keep caches in refs across renders.
			'react-hooks/rules-of-hooks': 'error',
			'react-hooks/exhaustive-deps': 'error',
			'@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none'}],
		},
	},
);
