import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/request';
import { forgotBody } from '../api/forgotPassword';
import { splitFieldErrors } from '@/shared/auth/model/fieldErrors';

describe('splitFieldErrors', () => {
  it("puts the form's fields under the inputs and the others above the form", () => {
    const error = new ApiError(400, 'bad', 400, [
      { field: 'newPassword', message: 'too short' },
      { field: 'tempToken', message: 'the token has expired' },
    ]);
    expect(splitFieldErrors(error, ['newPassword', 'confirmNewPassword'])).toEqual({
      fields: { newPassword: 'too short' },
      other: 'the token has expired',
    });
  });

  it('falls back to the message when no field is named', () => {
    expect(splitFieldErrors(new ApiError(409, 'conflict', 409, null), ['upsId'])).toEqual({
      fields: {},
      other: 'conflict',
    });
  });

  it('has nothing for errors that are not API errors', () => {
    expect(splitFieldErrors(new Error('x'), ['a'])).toEqual({ fields: {}, other: null });
  });
});

describe('forgotBody', () => {
  it('sends an e-mail address as email and anything else as username', () => {
    expect(forgotBody(' someone@example.com ')).toEqual({ email: 'someone@example.com' });
    expect(forgotBody('acme')).toEqual({ username: 'acme' });
  });
});
