/** A Resource (§2) of kind 1 as a list answer shows it, its texts made from its id: a judge test's page holds these. */
export function resourceRecord(id: string) {
  return {
    id,
    kind_id: '1',
    label: `Resource ${id}`,
    short_label: `R${id}`,
    sort_label: `resource ${id}`,
    picture: { shape: 'round', initial: 'R', url: `https://example.test/${id}.png` },
    attributes: {},
  };
}
