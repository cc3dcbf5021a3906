import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/request';
import type { PortRecord } from '@/shared/platform/api/types';
import { formatTime, isoToYmd as toYmd, ymdToIso as fromYmd } from '@/lib/dates';
import { formatChanges, formatValue, summarizeChanges } from '../model/audit';
import {
  conflictField,
  fieldErrorsOf,
  isConflict,
  staffFieldErrors,
} from '@/shared/platform/model/errors';
import { portOptions, slicOptions } from '@/shared/platform/model/exportLists';
import {
  ALL_CODES,
  descriptionsOf,
  grantableRoles,
  groupPermissions,
  permKey,
  roleChoices,
  roleCodesOf,
  sameCodes,
  sortRoles,
} from '../model/permissions';
import { checkStaffDraft, newStaffBody } from '../model/staffForm';

describe('permission groups', () => {
  it('puts the six route tags, the buttons and the grants in their groups, matrix order', () => {
    const g = groupPermissions();
    expect(g.route).toEqual([
      'declarations:management',
      'clearance:management',
      'customers:management',
      'staff:management',
      'roles:management',
      'ports:management',
      'customs:management',
    ]);
    expect(g.button).toContain('ports:add-slic');
    expect(g.button).toContain('staff:permission:transfer');
    expect(g.button).not.toContain('staff:management');
    expect(g.grant).toEqual([
      'user-roles:grant:SUPER_ADMIN',
      'user-roles:grant:ADMIN',
      'user-roles:grant:OPERATOR',
      'user-roles:grant:CUSTOMER',
      'user-roles:grant:COMPLIANCE',
    ]);
    expect(g.button).toContain('audit:read');
    expect(g.button).toContain('personal-data:erase');
    expect(g.button).toContain('audit:export');
    expect(g.button).toContain('declarations:export');
    expect(g.route.length + g.button.length + g.grant.length).toBe(ALL_CODES.length);
    expect(ALL_CODES.length).toBe(24);
  });

  it('adds codes only the server knows once, after the known ones', () => {
    const g = groupPermissions(['zeta:thing', 'alpha:thing', 'zeta:thing', 'staff:create']);
    expect(g.button.slice(-2)).toEqual(['alpha:thing', 'zeta:thing']);
    expect(g.button.filter((c) => c === 'staff:create')).toHaveLength(1);
  });

  it('makes i18n keys without the namespace separator', () => {
    expect(permKey('user-roles:grant:ADMIN')).toBe('user-roles_grant_ADMIN');
  });

  it('keeps the first description of a code', () => {
    expect(
      descriptionsOf(
        [{ permissionCode: 'a', permissionDescription: 'first' }],
        [{ permissionCode: 'a', permissionDescription: 'second' }, { permissionCode: 'b' }],
      ),
    ).toEqual({ a: 'first' });
  });

  it('sorts roles by sortNo', () => {
    const role = (roleCode: string, sortNo: number) => ({
      roleCode,
      sortNo,
      roleDescription: '',
      permissions: [],
      version: 1,
    });
    expect(
      sortRoles([role('CUSTOMER', 4), role('SUPER_ADMIN', 1), role('ADMIN', 2)]).map(
        (r) => r.roleCode,
      ),
    ).toEqual(['SUPER_ADMIN', 'ADMIN', 'CUSTOMER']);
  });

  it('compares code sets ignoring order and duplicates', () => {
    expect(sameCodes(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameCodes(['a'], ['a', 'b'])).toBe(false);
  });
});

describe('grantable roles', () => {
  const adminCodes = ['user-roles:grant:ADMIN', 'user-roles:grant:OPERATOR', 'staff:create'];

  it('lists the roles whose grant code is held', () => {
    expect(grantableRoles(adminCodes)).toEqual(['ADMIN', 'OPERATOR']);
    expect(grantableRoles([])).toEqual([]);
  });

  it('reads role codes from {roleCode, sortNo} entries or plain codes', () => {
    expect(roleCodesOf([{ roleCode: 'ADMIN', sortNo: 2 }, 'OPERATOR'])).toEqual([
      'ADMIN',
      'OPERATOR',
    ]);
    expect(roleCodesOf(null)).toEqual([]);
  });

  it('keeps a role the user cannot grant checked but disabled', () => {
    expect(roleChoices(['SUPER_ADMIN', 'OPERATOR'], adminCodes)).toEqual([
      { role: 'SUPER_ADMIN', checked: true, disabled: true },
      { role: 'ADMIN', checked: false, disabled: false },
      { role: 'OPERATOR', checked: true, disabled: false },
      { role: 'COMPLIANCE', checked: false, disabled: true },
    ]);
  });
});

describe('audit formatting', () => {
  it('writes each change as "field: from -> to"', () => {
    expect(
      formatChanges(
        [
          { field: 'roles', from: ['OPERATOR'], to: ['ADMIN', 'OPERATOR'] },
          { field: 'staffEmail', from: null, to: 'a@b.cn' },
          { field: 'limits', from: { a: 1 }, to: [] },
        ],
        '(empty)',
      ),
    ).toEqual([
      'roles: OPERATOR -> ADMIN, OPERATOR',
      'staffEmail: (empty) -> a@b.cn',
      'limits: {"a":1} -> (empty)',
    ]);
    expect(formatChanges(null, '-')).toEqual([]);
    expect(formatValue(false, '-')).toBe('false');
  });

  it('shows a list change as what was added and removed, with the whole change kept', () => {
    const lines = summarizeChanges(
      [
        { field: 'permissions', from: ['a:1', 'b:2', 'c:3'], to: ['a:1', 'c:3', 'd:4'] },
        { field: 'roles', from: null, to: ['ADMIN'] },
        { field: 'roles', from: ['ADMIN', 'OPERATOR'], to: ['OPERATOR', 'ADMIN'] },
        { field: 'staffEmail', from: 'a@b.cn', to: 'c@d.cn' },
      ],
      '(empty)',
    );
    expect(lines.map((l) => l.text)).toEqual([
      'permissions: + d:4; - b:2',
      'roles: + ADMIN',
      'roles: ADMIN, OPERATOR -> OPERATOR, ADMIN',
      'staffEmail: a@b.cn -> c@d.cn',
    ]);
    expect(lines[0].full).toBe('permissions: a:1, b:2, c:3 -> a:1, c:3, d:4');
  });

  it('converts dates between the picker and YYYYMMDD', () => {
    expect(toYmd('2026-11-02')).toBe('20261102');
    expect(toYmd(null)).toBe('');
    expect(fromYmd('20261102')).toBe('2026-11-02');
    expect(fromYmd('2026-11')).toBeNull();
  });

  it('shows the server time without the offset', () => {
    expect(formatTime('2026-11-22T16:05:09.123+08:00')).toBe('2026-11-22 16:05:09');
    expect(formatTime(undefined)).toBe('');
  });
});

describe('server field errors', () => {
  it('maps field paths to form fields and ignores other errors', () => {
    const error = new ApiError(400, 'bad', 400, [
      { field: 'staffEmail', message: 'taken' },
      { field: 'roles[1]', message: 'unknown role' },
      { field: 'other', message: 'x' },
    ]);
    expect(fieldErrorsOf(error, ['staffEmail', 'roles'])).toEqual({
      staffEmail: 'taken',
      roles: 'unknown role',
    });
    expect(fieldErrorsOf(new Error('x'), ['a'])).toEqual({});
    expect(isConflict(new ApiError(409, 'c', 409, { reason: 'VERSION_CONFLICT' }))).toBe(true);
  });

  it('puts a uniqueness conflict on the field its message names, never a version conflict', () => {
    const taken = new ApiError(409, 'another staff member has this e-mail address', 409, {
      reason: 'CONFLICT',
    });
    expect(staffFieldErrors(taken, ['staffEmail', 'username'])).toEqual({
      staffEmail: 'another staff member has this e-mail address',
    });
    const zh = new ApiError(409, '该用户名已被使用', 409, { reason: 'CONFLICT' });
    expect(staffFieldErrors(zh, ['staffEmail', 'username'])).toEqual({
      username: '该用户名已被使用',
    });
    const version = new ApiError(409, 'e-mail changed meanwhile', 409, {
      reason: 'VERSION_CONFLICT',
    });
    expect(conflictField(version, { staffEmail: ['e-mail'] })).toBeNull();
    expect(staffFieldErrors(taken, ['staffName'])).toEqual({});
  });
});

describe('staff form', () => {
  const draft = {
    staffId: ' S1 ',
    staffName: 'Li',
    staffEmail: 'li@x.cn',
    roles: ['OPERATOR'],
    username: ' ',
  };

  it('requires the fields and a well-formed e-mail', () => {
    expect(checkStaffDraft(draft, true)).toEqual({});
    expect(checkStaffDraft({ ...draft, staffId: '', staffEmail: 'nope', roles: [] }, true)).toEqual(
      {
        staffId: 'required',
        staffEmail: 'invalidEmail',
        roles: 'required',
      },
    );
    expect(checkStaffDraft({ ...draft, roles: [] }, false)).toEqual({});
  });

  it('trims and leaves out an empty username', () => {
    expect(newStaffBody(draft)).toEqual({
      staffId: 'S1',
      staffName: 'Li',
      staffEmail: 'li@x.cn',
      roles: ['OPERATOR'],
    });
    expect(newStaffBody({ ...draft, username: 'li' }).username).toBe('li');
  });
});

describe('export lists', () => {
  const port = (
    portCode: string,
    slics: [string, string, boolean?][],
    deleted = false,
  ): PortRecord => ({
    id: portCode,
    portCode,
    portName: `${portCode} name`,
    declarationSlic: `${portCode}D`,
    createTime: '2026-11-22T12:39:19+08:00',
    updateTime: '2026-11-22T12:39:19+08:00',
    slicInfoList: slics.map(([slic, name, gone]) => ({
      id: slic,
      upsFacilitySlic: slic,
      upsFacilityName: name,
      createTime: '2026-11-22T12:39:19+08:00',
      updateTime: '2026-11-22T12:39:19+08:00',
      deleted: gone ?? false,
    })),
    deleted,
    version: 1,
  });
  const ports = [
    port('PVG', [
      ['SHA01', 'Pudong'],
      ['SHA02', 'Old', true],
    ]),
    port('CGO', [
      ['CGO01', 'Zhengzhou'],
      ['SHA01', 'Pudong'],
    ]),
    port('XXX', [['X1', 'Gone']], true),
  ];

  it('offers each live port once by its code', () => {
    expect(portOptions(ports)).toEqual([
      { value: 'PVG', label: 'PVG · PVG name' },
      { value: 'CGO', label: 'CGO · CGO name' },
    ]);
  });

  it('offers the live SLICs of the chosen port, or of all ports without duplicates', () => {
    expect(slicOptions(ports, 'PVG').map((o) => o.value)).toEqual(['SHA01']);
    expect(slicOptions(ports, null).map((o) => o.value)).toEqual(['SHA01', 'CGO01']);
    expect(slicOptions(ports, 'NOPE')).toEqual([]);
  });
});
