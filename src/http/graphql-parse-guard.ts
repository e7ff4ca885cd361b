// A yoga plugin: a document graphql-js cannot parse because it nests too deeply (its parser is
// recursive, so an inline JSON literal thousands of levels deep overflows the stack) is the
// client's bad request, not the server's failure. Without it yoga answered a 500.
import type { Plugin } from 'graphql-yoga';
import { DomainError } from '../domain/errors.js';

export const refuseTooDeepDocuments: Plugin = {
  onParse({ parseFn, setParseFn }) {
    setParseFn((source, options) => {
      try {
        return parseFn(source, options);
      } catch (error) {
        if (error instanceof RangeError)
          throw new DomainError('bad_request', 'The document is nested too deeply to be read');
        throw error;
      }
    });
  },
};
