// Every DomainError code goes through the tool server's one mapper: a tool error result whose
// text is the API's error body (the REST body of the same error).
import { describe, expect, it, vi } from 'vitest';
import { DomainError, ERROR_CODES, type ErrorCode } from '../../src/domain/errors.js';
import { errorBody } from '../../src/http/error-body.js';
import { toolError } from '../../src/mcp/mcp-server.js';

describe('tool error mapping', () => {
  it.each(Object.keys(ERROR_CODES) as ErrorCode[])('%s becomes a tool error whose text is the error body', (code) => {
    const error = new DomainError(code, 'explanation', code === 'conflict' ? { contacts: [] } : {});
    const logError = vi.fn();
    const result = toolError(error, 'req-1', logError);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
    const body = JSON.parse((result.content[0] as { text: string }).text);
    expect(body).toEqual(errorBody(error, 'req-1'));
    expect(body).toMatchObject({ code, message: 'explanation', requestId: 'req-1' });
    // Only an internal failure is logged.
    expect(logError).toHaveBeenCalledTimes(code === 'internal' ? 1 : 0);
  });

  it('any other failure is an internal error body, with its cause logged and not shown', () => {
    const cause = new Error('connection reset by peer at 10.0.0.7');
    const logError = vi.fn();
    const result = toolError(cause, 'req-2', logError);
    const body = JSON.parse((result.content[0] as { text: string }).text);
    expect(body).toEqual({
      error: 'Internal Server Error',
      message: 'The service failed to handle the request',
      code: 'internal',
      requestId: 'req-2',
    });
    expect(logError).toHaveBeenCalledWith(cause, 'req-2');
  });
});
