/** carriers: endpoints of this area (issue 3). Filled by the area's implementation. */
export {};
