// Every project's tests in one Jest run (used by `npm test`).
export default {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js'],
};
