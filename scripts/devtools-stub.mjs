// Ink imports React DevTools only in development; a bundle of ours never is (bundle-options.mjs).
export default {};
