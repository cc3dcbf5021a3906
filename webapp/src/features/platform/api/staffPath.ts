// The path of one staff member's resource, shared by the staff command endpoints.
export const staffPath = (id: string) => `/api/v1/staff/${encodeURIComponent(id)}`;
