// Every DomainError code goes through the one REST mapper with its documented status.
import { describe, expect, it } from 'vitest';
import { DomainError, ERROR_CODES, asDomainError, type ErrorCode } from '../../src/domain/errors.js';
import { errorBody } from '../../src/http/error-body.js';
import { GraphQLError, locatedError } from 'graphql';

describe('error mapping', () => {
  it.each(Object.entries(ERROR_CODES) as Array<[ErrorCode, number]>)(
    '%s maps to HTTP %i with the contract body',
    (code, status) => {
      const error = new DomainError(code, 'explanation', code === 'conflict' ? { contacts: [] } : {});
      expect(error.status).toBe(status);
      const body = errorBody(error, 'req-1');
      expect(body).toMatchObject({ code, message: 'explanation', requestId: 'req-1' });
      expect(typeof body.error).toBe('string');
      expect(body.error).not.toBe('');
      if (code === 'conflict') expect(body.contacts).toEqual([]);
      // GraphQL carries the same code in extensions.
      expect(error.extensions.code).toBe(code);
    },
  );

  it('finds the DomainError behind a GraphQL located error, and nothing behind others', () => {
    const inner = new DomainError('not_found', 'gone');
    expect(asDomainError(locatedError(inner, undefined))).toBe(inner);
    expect(asDomainError(new GraphQLError('other'))).toBeUndefined();
    expect(asDomainError(new Error('plain'))).toBeUndefined();
  });
});
