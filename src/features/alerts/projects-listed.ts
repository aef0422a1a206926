/**
 * Projects whose rules or incidents the alerts pages list together when the header's scope
 * holds several and none is picked (each is a read of its own); the rest are left to the picker.
 */
export const PROJECTS_LISTED = 12;
