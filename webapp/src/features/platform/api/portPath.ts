// The paths of a port and of one of its facility SLICs, shared by the port command endpoints.
export const portPath = (id: string) => `/api/v1/ports/${encodeURIComponent(id)}`;

export const slicPath = (portId: string, slicId: string) =>
  `${portPath(portId)}/slics/${encodeURIComponent(slicId)}`;
