// pt-BR catalogue, namespace `wicketz` (keys are `wicketz.*`).
export default {
};
